/**
 * Runs git on a job's worktree without trusting anything inside it. Repository code (setup and
 * validate commands) can write the whole worktree, including its `.git` file; if our own
 * unsandboxed git followed that file, a command could point it at a fake git directory whose
 * config (`core.fsmonitor`, hooks) runs code with the worker's credentials. So the git
 * directory, recorded when the worktree was created, is passed explicitly every time.
 */
import { runGit, type GitOptions, type GitResult } from './run-git.js';

export interface WorktreeRef {
  worktree: string;
  /** The worktree's own git directory inside the mirror (`<mirror>/worktrees/<id>`). */
  gitDir: string;
}

export function worktreeGit(
  ref: WorktreeRef,
  args: readonly string[],
  options: Omit<GitOptions, 'cwd'> = {},
): Promise<GitResult> {
  return runGit(args, {
    ...options,
    cwd: ref.worktree,
    env: { ...options.env, GIT_DIR: ref.gitDir, GIT_WORK_TREE: ref.worktree },
  });
}

/**
 * git in a checkout: told its recorded git directory when there is one (a job's worktree), or
 * finding the repository from `root` (a user's own checkout, `autofix context`).
 */
export function checkoutGit(
  root: string,
  gitDir: string | undefined,
  args: readonly string[],
): Promise<GitResult> {
  return gitDir ? worktreeGit({ worktree: root, gitDir }, args) : runGit(args, { cwd: root });
}
