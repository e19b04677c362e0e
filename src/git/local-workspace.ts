/**
 * The workspace of `autofix run` (run-local.ts): the user's repository is the remote (a local
 * path, so the fetch is local and, once the mirror has its history, copies only new commits), the
 * mirror and the pool live under `AUTOFIX_WORKDIR`, and worktrees are recycled like the app's.
 *
 * Why recycling: a new worktree of a 20,000-file repository is a full checkout — 20,000 file
 * creations, exactly the checkout half of a clone — while the fetch from the user's repository
 * copies nothing when it has no new commits (about 20 ms). On a shared 2-core VM, where a file
 * creation cost 0.2–0.6 ms of kernel time, that checkout made a warm `autofix run` slower than a
 * whole fresh clone (bench:workspace: 12.2 s vs 8.1 s). A parked worktree only needs the files
 * that changed since its last job. The safety is the app's (workspace.ts, worktree-pool.ts): the
 * mirror is scrubbed before the job and before parking, parking resets and removes everything
 * that is not tracked at the base (ignored files such as `node_modules` too: the package caches
 * live outside the worktree), every move happens under the mirror lock, and job folders and pool
 * slots name their owner process so that a run killed with Ctrl-C is cleaned up by the next one.
 */
import { createHash } from 'node:crypto';
import { basename, resolve } from 'node:path';
import type { Logger } from '../logger.js';
import type { WorkspaceOptions } from './workspace.js';

/**
 * Parked worktrees per repository for `autofix run`: one run at a time is the usual case, and
 * each parked worktree keeps one checkout's worth of disk under `AUTOFIX_WORKDIR/pool`. A second
 * concurrent run gets a new worktree, removed when it ends.
 */
export const LOCAL_RECYCLED_WORKTREES = 1;

export interface LocalWorkspaceInput {
  /** `AUTOFIX_WORKDIR`. */
  workdir: string;
  /** Absolute path of the user's repository (its top level). */
  repoPath: string;
  /** The branch checked out in the user's repository. */
  baseBranch: string;
  branchPrefix: string;
  jobId: string;
  logger?: Logger;
}

/**
 * The mirror, pool and caches of a local repository are keyed by its absolute path (two
 * repositories with the same folder name must not share a mirror: each fetch would drop the
 * other's branches), and the worktree keeps the repository's own folder name.
 */
export function localRepoKey(repoPath: string): string {
  const id = createHash('sha256').update(resolve(repoPath)).digest('hex').slice(0, 12);
  // A folder named `my repo` or `é` still gets a valid key (mirror names allow [A-Za-z0-9_.-]).
  const name = basename(resolve(repoPath)).replace(/[^A-Za-z0-9_.-]/g, '-');
  return `local-${id}/${name === '' || /^\.+$/.test(name) ? 'repo' : name}`;
}

export function localWorkspaceOptions(input: LocalWorkspaceInput): WorkspaceOptions {
  return {
    workdir: input.workdir,
    repo: localRepoKey(input.repoPath),
    remoteUrl: input.repoPath,
    baseBranch: input.baseBranch,
    branchPrefix: input.branchPrefix,
    jobId: input.jobId,
    recycleWorktrees: LOCAL_RECYCLED_WORKTREES,
    ...(input.logger ? { logger: input.logger } : {}),
  };
}
