/**
 * Pushes (docs/SECURITY.md, rule 5): always with a lease on the value this job saw (absent for a
 * new branch, the fetched tip for a reused bot branch), so a push can never overwrite work it has
 * not seen. Rejections are mapped to error codes with the remote's own words, redacted. What is
 * pushed when: git/keep-commit.ts (the private ref, then the branch — publish last).
 *
 * Before every push, the mirror is scrubbed again (repository code ran since the job opened it: a
 * `url.<x>.insteadOf` or `remote.<url>.pushurl` planted meanwhile would send the branch, and the
 * token, elsewhere), and `--receive-pack` names git's own program, so a planted
 * `remote.<url>.receivepack` could not take effect even between scrub and push.
 */
import { AutofixError } from '../errors.js';
import type { Logger } from '../logger.js';
import { remoteError } from './mirror.js';
import { runGit } from './run-git.js';
import { scrubMirrorLocked } from './scrub-mirror-locked.js';
import type { Workspace } from './workspace.js';

export interface PushOptions {
  token?: string;
  timeoutMs?: number;
  /** Where a tampered mirror is reported. */
  logger?: Logger;
}

/** The default program, named on the command line where it beats any `remote.<url>.receivepack`. */
export const RECEIVE_PACK = '--receive-pack=git-receive-pack';

/** Like RECEIVE_PACK, for fetch-side commands: beats any `remote.<url>.uploadpack`. */
export const UPLOAD_PACK = '--upload-pack=git-upload-pack';

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
  // An atomic push lists every ref; the one that caused it is not `atomic push failed`.
  const reasons = stdout
    .split('\n')
    .filter((l) => l.startsWith('!'))
    .map((l) => l.split('\t')[2] ?? '');
  const reason = reasons.find((r) => !r.includes('atomic push failed')) ?? reasons[0] ?? '';
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

/** One ref to move: `to` null deletes it. */
export interface RefUpdate {
  ref: string;
  to: string | null;
  /** The lease: the sha the ref must have, null for "must not exist"; `force` for none. */
  expect: string | null;
  force?: boolean;
}

/**
 * The one way our code pushes: from the mirror (it has every object of the worktree's commits,
 * and nothing in the worktree is read while the token is in the environment), scrubbed first,
 * git's own receive-pack named, no hooks, a lease on every ref (unless `force`), all or nothing.
 */
export async function pushRefs(
  ws: Workspace,
  updates: RefUpdate[],
  options: PushOptions & { what: string },
): Promise<void> {
  await scrubMirrorLocked(ws.mirrorDir, options.logger);
  const leases = updates.flatMap((u) =>
    u.force ? [] : [`--force-with-lease=${u.ref}:${u.expect ?? ''}`],
  );
  const specs = updates.map((u) =>
    u.to === null ? `:${u.ref}` : `${u.force ? '+' : ''}${u.to}:${u.ref}`,
  );
  const result = await runGit(
    [
      'push',
      '--porcelain',
      '--no-verify',
      RECEIVE_PACK,
      ...(updates.length > 1 ? ['--atomic'] : []),
      ...leases,
      ws.remoteUrl,
      ...specs,
    ],
    { cwd: ws.mirrorDir, token: options.token, timeoutMs: options.timeoutMs, okCodes: [1, 128] },
  ).catch((err: unknown) => {
    throw remoteError(err, options.what);
  });
  if (result.code !== 0) throw pushFailure(result.stdout, result.stderr, options.what);
}
