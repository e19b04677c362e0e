/**
 * The change as it is about to be committed: each changed path's text at the branch tip (`HEAD`,
 * read from git) and in the worktree. A symbolic link is read as its target, which is what git
 * commits; a deleted path adds nothing and is left out.
 */
import { lstat, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { worktreeGit, type WorktreeRef } from '../git/worktree-git.js';
import type { ChangedText } from './find-credentials.js';

async function worktreeText(ref: WorktreeRef, path: string): Promise<string | undefined> {
  const abs = join(ref.worktree, path);
  const stat = await lstat(abs).catch(() => undefined);
  if (!stat) return undefined;
  if (stat.isSymbolicLink()) return readlink(abs);
  return stat.isFile() ? readFile(abs, 'utf8') : undefined;
}

export async function readWorkspaceChange(
  ref: WorktreeRef,
  paths: readonly string[],
): Promise<ChangedText[]> {
  const files: ChangedText[] = [];
  for (const path of paths) {
    const after = await worktreeText(ref, path);
    if (after === undefined) continue;
    const head = await worktreeGit(ref, ['cat-file', 'blob', `HEAD:${path}`], {
      okCodes: [128],
    });
    files.push({ path, before: head.code === 0 ? head.stdout : undefined, after });
  }
  return files;
}
