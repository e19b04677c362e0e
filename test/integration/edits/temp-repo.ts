/** Real temporary git repositories for the edit engine's integration tests (built by repo-builder). */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createRepo } from '../../helpers/repo-builder.js';

const made: string[] = [];

/** A repository with `files` written but not committed (no hooks or excludes: `--template=`). */
export function makeRepo(files: Record<string, string>): string {
  const repo = createRepo({
    prefix: 'autofix-edits-',
    files,
    commit: false,
    initArgs: ['--template='],
  });
  made.push(repo.root);
  return repo.dir;
}

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'autofix-outside-'));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Every path under dir (but .git) with its bytes and mode, for byte-identical comparisons. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === '.git') continue;
      const abs = join(d, e.name);
      const rel = relative(dir, abs);
      if (e.isSymbolicLink()) out[rel] = 'symlink';
      else if (e.isDirectory()) {
        out[`${rel}/`] = 'dir';
        walk(abs);
      } else
        out[rel] =
          `${(statSync(abs).mode & 0o777).toString(8)} ${readFileSync(abs).toString('base64')}`;
    }
  };
  walk(dir);
  return out;
}

export const read = (dir: string, path: string): string => readFileSync(join(dir, path), 'utf8');
