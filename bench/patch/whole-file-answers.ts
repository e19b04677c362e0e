import { diffArrays } from 'diff';
import type { EditFormat } from '../../src/config/repo-config.js';
import { commentText } from '../../src/edits/comment-text.js';
import { sha256 } from '../../src/edits/sha256.js';
import type { Rng } from './prng.js';
import { linesOf } from './rewrite-hunk.js';
import type { Tree } from './variants.js';

/**
 * The same edit sent in the whole-file formats, which only ours reads: one changed file written
 * whole (`fenced-kept`: must apply exactly, real comments that look like placeholders included);
 * the same with a run of 1-8 unchanged lines holding code, or the whole rest of the file, replaced
 * by a placeholder (`fenced-lazy`); the fenced block or the json-writes JSON cut off mid-content
 * (`fenced-cut`, `json-cut`).
 */
export interface WholeFileCase {
  klass: string;
  diff: string;
  format: EditFormat;
  intended: Tree;
  refusalOk: boolean;
}

const PLACEHOLDERS = {
  py: ['# ... rest of the file unchanged ...', '# ... existing code ...', '# ...'],
  js: ['// ... rest of the file unchanged ...', '// ... existing code ...', '/* ... */'],
} as const;

const isCode = (line: string): boolean => line.trim() !== '' && commentText(line) === undefined;

/** Start and end (exclusive, in the new version) of the runs of unchanged lines. */
function unchangedRuns(before: readonly string[], after: readonly string[]): [number, number][] {
  const runs: [number, number][] = [];
  let at = 0;
  for (const part of diffArrays([...before], [...after])) {
    if (part.removed) continue;
    if (!part.added) runs.push([at, at + part.value.length]);
    at += part.value.length;
  }
  return runs;
}

function lazy(path: string, before: string, after: string, rng: Rng): string | undefined {
  const lines = linesOf(after);
  const runs = unchangedRuns(linesOf(before), lines).filter(([s, e]) =>
    lines.slice(s, e).some(isCode),
  );
  if (runs.length === 0) return undefined;
  const [s, e] = rng.pick(runs);
  const tail = e === lines.length && rng.chance(0.5);
  const from = tail ? s + rng.int(0, Math.max(0, e - s - 1)) : rng.int(s, e - 1);
  const to = tail ? e : Math.min(e, from + rng.int(1, 8));
  if (!lines.slice(from, to).some(isCode)) return undefined;
  const indent = /^\s*/.exec(lines.slice(from, to).find((l) => l.trim() !== '') ?? '')?.[0] ?? '';
  const marker = indent + rng.pick(PLACEHOLDERS[path.endsWith('.py') ? 'py' : 'js']);
  return [...lines.slice(0, from), marker, ...lines.slice(to)].join('\n') + '\n';
}

/** The whole-file cases of one edit, for one of its changed files. */
export function wholeFileCases(
  original: ReadonlyMap<string, string>,
  intended: Tree,
  rng: Rng,
): WholeFileCase[] {
  const changed = [...original.keys()].filter((p) => {
    const next = intended.get(p);
    return next !== undefined && next !== original.get(p);
  });
  if (changed.length === 0) return [];
  const path = rng.pick(changed);
  const before = original.get(path) ?? '';
  const after = intended.get(path) ?? '';
  const meant: Tree = new Map(original);
  meant.set(path, after);
  const fenced = (content: string): string => `^^^${path}\n${content}^^^end\n`;
  const cutAt = rng.int(Math.floor(after.length / 4), after.length - 2);
  const json = JSON.stringify({
    summary: 'The change.',
    writes: [{ path, base_sha256: sha256(before), content: after }],
  });
  const cases: WholeFileCase[] = [
    {
      klass: 'fenced-kept',
      diff: fenced(after),
      format: 'fenced-files',
      intended: meant,
      refusalOk: false,
    },
    {
      klass: 'fenced-cut',
      diff: `^^^${path}\n${after.slice(0, cutAt)}`,
      format: 'fenced-files',
      intended: meant,
      refusalOk: true,
    },
    {
      klass: 'json-cut',
      diff: json.slice(0, json.indexOf('"content"') + 11 + cutAt),
      format: 'json-writes',
      intended: meant,
      refusalOk: true,
    },
  ];
  const elided = lazy(path, before, after, rng);
  if (elided !== undefined)
    cases.push({
      klass: 'fenced-lazy',
      diff: fenced(elided),
      format: 'fenced-files',
      intended: meant,
      refusalOk: true,
    });
  return cases;
}
