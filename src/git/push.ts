/**
 * Pushes the job's branch (DESIGN.md §5.5): only below the bot's prefix, always with a lease on
 * the value this job saw (absent for a new branch, the fetched tip for a reused bot branch, our
 * own last push after that), so a push can never overwrite work it has not seen. Rejections are
 * mapped to error codes with the remote's own words, redacted.
 *
 * Before it, the mirror is scrubbed again (repository code ran since the job opened it: a
 * `url.<x>.insteadOf` or `remote.<url>.pushurl` planted meanwhile would send the branch, and the
 * token, elsewhere), and `--receive-pack` names git's own program, so a planted
 * `remote.<url>.receivepack` could not take effect even between scrub and push.
 */
import { AutofixError } from '../errors.js';
import type { Logger } from '../logger.js';
import { assertBotBranch } from './branch-name.js';
import { remoteError } from './mirror.js';
import { runGit } from './run-git.js';
import { scrubMirrorLocked } from './scrub-mirror-locked.js';
import { worktreeGit } from './worktree-git.js';
import type { Workspace } from './workspace.js';

export interface PushOptions {
  token?: string;
  timeoutMs?: number;
  /** Where a tampered mirror is reported. */
  logger?: Logger;
}

/** The default program, named on the command line where it beats any `remote.<url>.receivepack`. */
export const RECEIVE_PACK = '--receive-pack=git-receive-pack';

/** The remote's `remote: …` lines, or git's own last error line. */
function remoteMessage(stderr: string): string {
  const lines = stderr
    .split('\n')
    .filter((l) => l.startsWith('remote:'))
    .map((l) => l.replace(/^remote:\s?/, '').trimEnd())
    .filter((l) => l.trim() !== '');
  if (lines.length > 0) return lines.join('\n');
  return stderr.trim().split('\n').slice(-3).join('\n');
}

/** Turns a failed `git push --porcelain` into the error the user should read. */
export function pushFailure(stdout: string, stderr: string, branch: string): AutofixError {
  const rejected = stdout.split('\n').find((l) => l.startsWith('!'));
  const reason = rejected?.split('\t')[2] ?? '';
  const message = remoteMessage(stderr);
  if (/stale info|fetch first|non-fast-forward|already exists/.test(reason)) {
    return new AutofixError(
      'GIT_CONFLICT',
      `push of ${branch} rejected: the remote branch changed since this job fetched it (${reason})`,
      { details: { reason, remote: message }, recoverable: false },
    );
  }
  if (
    reason.includes('remote rejected') ||
    /\b(401|403)\b|denied|not allowed|refusing/i.test(stderr)
  ) {
    return new AutofixError(
      'PERMISSION_DENIED',
      `push of ${branch} rejected by the remote${reason ? ` ${reason}` : ''}:\n${message}`,
      { details: { reason, remote: message }, recoverable: false },
    );
  }
  return new AutofixError('INTERNAL', `push of ${branch} failed:\n${message}`, {
    details: { reason, remote: message },
  });
}

export async function pushBranch(ws: Workspace, options: PushOptions = {}): Promise<string> {
  const branch = ws.branch;
  if (!branch)
    throw new AutofixError('INTERNAL', 'push before prepareBranch', { recoverable: false });
  assertBotBranch(branch.name, ws.branchPrefix);
  await scrubMirrorLocked(ws.mirrorDir, options.logger);
  const head = (await worktreeGit(ws, ['rev-parse', '--verify', 'HEAD^{commit}'])).stdout.trim();
  const expected = branch.pushedSha ?? branch.remoteShaBefore ?? '';
  const ref = `refs/heads/${branch.name}`;
  // From the mirror (it has every object of the worktree's commits): nothing in the worktree
  // is read while the token is in the environment.
  const result = await runGit(
    [
      'push',
      '--porcelain',
      '--no-verify',
      RECEIVE_PACK,
      `--force-with-lease=${ref}:${expected}`,
      ws.remoteUrl,
      `${head}:${ref}`,
    ],
    { cwd: ws.mirrorDir, token: options.token, timeoutMs: options.timeoutMs, okCodes: [1, 128] },
  ).catch((err: unknown) => {
    throw remoteError(err, `pushing ${branch.name}`);
  });
  if (result.code !== 0) throw pushFailure(result.stdout, result.stderr, branch.name);
  branch.pushedSha = head;
  return head;
}
