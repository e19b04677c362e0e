import { AutofixError } from '../errors.js';
import { runGit } from './run-git.js';

/**
 * `git apply --check` of a clean unified diff against the work tree: the last word on whether a
 * change applies. A refusal is `GIT_CONFLICT` carrying git's own message.
 */
export async function gitApplyCheck(
  repoDir: string,
  diff: string,
  options: { gitDir?: string } = {},
): Promise<void> {
  if (diff.trim() === '') return;
  const result = await runGit(['apply', '--check', '--whitespace=nowarn', '-'], {
    cwd: repoDir,
    input: diff,
    okCodes: [1, 128],
    // In a job's worktree pass `ws.gitDir`: the `.git` link there is writable by repository code.
    ...(options.gitDir ? { env: { GIT_DIR: options.gitDir, GIT_WORK_TREE: repoDir } } : {}),
  });
  if (result.code !== 0) {
    throw new AutofixError(
      'GIT_CONFLICT',
      `git apply --check refused the diff:\n${result.stderr.trim()}`,
      {
        details: { stderr: result.stderr },
        recoverable: false,
      },
    );
  }
}
