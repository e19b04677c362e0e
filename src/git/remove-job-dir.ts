import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { withMirrorLock } from './mirror.js';

/**
 * Removes a job directory that may hold a registered worktree of `mirrorDir`. Another job's
 * `git worktree repair` (run under the mirror lock when it parks or claims a worktree) rewrites
 * the `.git` file of every registered worktree, so deleting one outside the lock races with it
 * (ENOTEMPTY, and the folder, worktree and branch stay behind). Under the lock the directory is
 * only renamed aside (instant) and `forget` runs (prune, branch deletion); the slow delete of
 * the renamed tree runs after the lock is released, when git no longer knows the path.
 */
export async function removeJobDir(
  jobDir: string,
  mirrorDir: string,
  forget: () => Promise<void>,
  lockTimeoutMs?: number,
): Promise<void> {
  if (!existsSync(join(mirrorDir, 'HEAD'))) {
    await rm(jobDir, { recursive: true, force: true });
    return;
  }
  const aside = `${jobDir}.removing-${randomUUID().slice(0, 8)}`;
  await withMirrorLock(
    mirrorDir,
    async () => {
      await rename(jobDir, aside).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
      await forget();
    },
    lockTimeoutMs,
  );
  await rm(aside, { recursive: true, force: true });
}
