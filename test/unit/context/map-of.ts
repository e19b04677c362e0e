import type { RepoFile, RepoMap, SkippedFile } from '../../../src/context/build-repo-map.js';
import { extractSymbols, languageOf } from '../../../src/context/extract-symbols.js';

/** A RepoMap from literal files, as buildRepoMap would make it, without a disk. */
export function mapOf(
  files: Record<string, string>,
  skipped: SkippedFile[] = [],
  /** The files each recent commit changed, newest first. */
  changes: string[][] = [],
): RepoMap {
  const list: RepoFile[] = Object.entries(files)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([path, content]) => ({
      path,
      bytes: Buffer.byteLength(content),
      lines: content.split('\n').length,
      language: languageOf(path),
      symbols: extractSymbols(path, content),
      firstLines: content
        .split('\n')
        .filter((l) => l.trim())
        .slice(0, 2),
      content,
    }));
  return { root: '/repo', source: 'walk', files: list, skipped, changes };
}

/** Thirty small Python modules that share no word with the tests' issues: a repository's rest. */
export const pythonNoise: Record<string, string> = Object.fromEntries(
  Array.from({ length: 30 }, (_, i) => [
    `pkg/part${i}/worker${i}.py`,
    `def work${i}(job):\n    return job.size * ${i}\n`,
  ]),
);
