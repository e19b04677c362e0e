import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { applyPatch, parsePatch } from 'diff';
import type { EditFormat } from '../../src/config/repo-config.js';
import { applyEdits } from '../../src/edits/index.js';
import { gitApplyCheck } from '../../src/git/apply-check.js';
import { checkIgnore } from '../../src/git/check-ignore.js';
import { run } from './repo.js';

/** An applier under test: true when it claims success. Only ours reads formats other than udiff. */
export interface Tool {
  name: string;
  apply(dir: string, diff: string, format?: EditFormat): Promise<boolean>;
}

export const ours = (onError?: (err: unknown) => void): Tool => ({
  name: 'ours',
  apply: async (dir, diff, format = 'udiff') => {
    try {
      await applyEdits({
        repoDir: dir,
        format,
        text: diff,
        isIgnored: (p) => checkIgnore(dir, p),
        checkDiff: gitApplyCheck,
      });
      return true;
    } catch (err) {
      onError?.(err);
      return false;
    }
  },
});

export const gitApply: Tool = {
  name: 'git apply',
  apply: async (dir, diff) => (await run('git', ['apply', '-'], dir, diff)).code === 0,
};

export const gitApplyLoose: Tool = {
  name: 'git apply -C1 …',
  apply: async (dir, diff) =>
    (await run('git', ['apply', '--recount', '--ignore-whitespace', '-C1', '-'], dir, diff))
      .code === 0,
};

export const gnuPatch: Tool = {
  name: 'patch --fuzz=2',
  apply: async (dir, diff) =>
    (
      await run(
        'patch',
        ['-p1', '--fuzz=2', '--batch', '--forward', '--no-backup-if-mismatch', '-r', '-', '-s'],
        dir,
        diff,
      )
    ).code === 0,
};

const stripPrefix = (name: string | undefined, prefix: string): string | undefined =>
  name === undefined || name === '/dev/null'
    ? undefined
    : (name.startsWith(prefix) ? name.slice(prefix.length) : name).split('\t')[0];

/** jsdiff as a library user would wire it: every file or none. */
export const jsdiffFuzz: Tool = {
  name: 'jsdiff fuzz=2',
  apply: async (dir, diff) => {
    let patches;
    try {
      patches = parsePatch(diff);
    } catch {
      return false;
    }
    const results: { path: string; content?: string }[] = [];
    for (const p of patches) {
      const oldPath = stripPrefix(p.oldFileName, 'a/');
      const newPath = stripPrefix(p.newFileName, 'b/');
      const path = newPath ?? oldPath;
      if (path === undefined) return false;
      const source =
        oldPath === undefined
          ? ''
          : await readFile(join(dir, oldPath), 'utf8').catch(() => undefined);
      if (source === undefined) return false;
      const out = applyPatch(source, p, { fuzzFactor: 2 });
      if (out === false) return false;
      results.push(newPath === undefined ? { path } : { path, content: out });
    }
    if (results.length === 0) return false;
    for (const r of results) {
      if (r.content === undefined) await rm(join(dir, r.path), { force: true });
      else {
        await mkdir(dirname(join(dir, r.path)), { recursive: true });
        await writeFile(join(dir, r.path), r.content);
      }
    }
    return true;
  },
};
