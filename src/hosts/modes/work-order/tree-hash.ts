/**
 * The git tree hash of the work tree as it is (tracked and untracked, ignored files excluded),
 * computed in a throwaway index so the user's index and the uncommitted changes stay as they are.
 * Deterministic: it depends on file contents and modes only.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGit } from '../../../git/run-git.js';

export async function treeHash(repo: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'autofix-tree-'));
  const env = { GIT_INDEX_FILE: join(dir, 'index') };
  try {
    await runGit(['read-tree', 'HEAD'], { cwd: repo, env });
    await runGit(['add', '--all', '--', '.'], { cwd: repo, env });
    return (await runGit(['write-tree'], { cwd: repo, env })).stdout.trim();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
