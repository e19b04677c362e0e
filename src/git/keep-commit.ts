/**
 * Publish last. The code stage's validated commit goes to the run's private ref on the remote,
 * `refs/autofix/runs/<run id>`: outside `refs/heads/` no branch, pull request or CI workflow
 * sees it, yet any worker (a retry on another machine, the publish step) can fetch it. Only the
 * publish step, once every stage has said yes, moves it to the branch — in one atomic push that
 * also deletes the private ref, with a lease on both, so the branch never moves under someone
 * else's push and the private ref never outlives a published run.
 *
 * Like every push of ours: from the mirror, scrubbed first, `--receive-pack` named, `--no-verify`.
 */
import { AutofixError } from '../errors.js';
import type { Logger } from '../logger.js';
import { assertBotBranch } from './branch-name.js';
import { remoteError } from './mirror.js';
import { pushRefs, UPLOAD_PACK, type RefUpdate } from './push.js';
import { runGit } from './run-git.js';
import { worktreeGit } from './worktree-git.js';
import type { Workspace } from './workspace.js';

export interface KeepOptions {
  token?: string;
  timeoutMs?: number;
  logger?: Logger;
}

/** The run's private ref. Run ids are `run-<hex>`; anything else is refused. */
export function keptRefOf(runId: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(runId) || runId.includes('..')) {
    throw new AutofixError('INTERNAL', `not a run id: ${JSON.stringify(runId)}`, {
      recoverable: false,
    });
  }
  return `refs/autofix/runs/${runId}`;
}

/** The sha of `ref` on the remote, or null. */
export async function remoteRefSha(
  ws: Workspace,
  ref: string,
  options: KeepOptions = {},
): Promise<string | null> {
  const r = await runGit(['ls-remote', UPLOAD_PACK, ws.remoteUrl, ref], {
    cwd: ws.mirrorDir,
    token: options.token,
    timeoutMs: options.timeoutMs,
  }).catch((err: unknown) => {
    throw remoteError(err, `reading ${ref}`);
  });
  const line = r.stdout.split('\n').find((l) => l.endsWith(`\t${ref}`));
  return line ? line.split('\t')[0]! : null;
}

/** Makes sure the mirror has `sha` (another worker kept it): fetched from the private ref. */
async function ensureObject(ws: Workspace, ref: string, sha: string, options: KeepOptions) {
  const has = await runGit(['cat-file', '-e', `${sha}^{commit}`], {
    cwd: ws.mirrorDir,
    okCodes: [1, 128],
  });
  if (has.code === 0) return;
  await runGit(['fetch', '--quiet', '--no-tags', UPLOAD_PACK, ws.remoteUrl, ref], {
    cwd: ws.mirrorDir,
    token: options.token,
    timeoutMs: options.timeoutMs,
  }).catch((err: unknown) => {
    throw remoteError(err, `fetching ${ref}`);
  });
}

/**
 * This run's kept commit when an earlier attempt of the code stage kept one (it then died before
 * it could record its output): the mirror has its objects afterwards.
 */
export async function findKept(
  ws: Workspace,
  runId: string,
  options: KeepOptions = {},
): Promise<{ ref: string; sha: string } | null> {
  const ref = keptRefOf(runId);
  const sha = await remoteRefSha(ws, ref, options);
  if (!sha) return null;
  await ensureObject(ws, ref, sha, options);
  return { ref, sha };
}

/** Pushes the worktree's HEAD to the run's private ref (replacing what an earlier attempt kept). */
export async function keepCommit(
  ws: Workspace,
  runId: string,
  options: KeepOptions = {},
): Promise<{ ref: string; sha: string }> {
  const branch = ws.branch;
  if (!branch)
    throw new AutofixError('INTERNAL', 'keep before prepareBranch', { recoverable: false });
  assertBotBranch(branch.name, ws.branchPrefix);
  const ref = keptRefOf(runId);
  const head = (await worktreeGit(ws, ['rev-parse', '--verify', 'HEAD^{commit}'])).stdout.trim();
  await pushRefs(ws, [{ ref, to: head, expect: null, force: true }], { ...options, what: ref });
  branch.kept = { ref, sha: head };
  return branch.kept;
}

/**
 * Moves the kept commit to the branch and deletes the private ref, atomically. A retry after a
 * publish that landed finds the branch at the kept commit and only finishes the cleanup.
 */
export async function publishKept(ws: Workspace, options: KeepOptions = {}): Promise<string> {
  const branch = ws.branch;
  const kept = branch?.kept;
  if (!branch || !kept) {
    throw new AutofixError('INTERNAL', 'publish without a kept commit', { recoverable: false });
  }
  assertBotBranch(branch.name, ws.branchPrefix);
  const head = `refs/heads/${branch.name}`;
  const [current, keptNow] = await Promise.all([
    remoteRefSha(ws, head, options),
    remoteRefSha(ws, kept.ref, options),
  ]);
  const dropKept: RefUpdate[] =
    keptNow === kept.sha ? [{ ref: kept.ref, to: null, expect: kept.sha }] : [];
  const what = `publishing ${branch.name}`;
  if (current === kept.sha) {
    // Published by an earlier attempt: only the private ref may be left.
    if (dropKept.length > 0) await pushRefs(ws, dropKept, { ...options, what });
  } else {
    await ensureObject(ws, kept.ref, kept.sha, options);
    await pushRefs(
      ws,
      [
        { ref: head, to: kept.sha, expect: branch.pushedSha ?? branch.remoteShaBefore },
        ...dropKept,
      ],
      {
        ...options,
        what: branch.name,
      },
    );
  }
  branch.pushedSha = kept.sha;
  return kept.sha;
}
