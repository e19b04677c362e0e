/**
 * Puts the job's worktree on its feature branch. A branch that already exists on the remote is
 * considered only when it is ours for the same issue; anything else is `BRANCH_EXISTS`, because
 * committing onto someone else's branch (or another issue's) would hijack their work.
 *
 * "Ours for the same issue" is read from the branch's history, not from a side table: the
 * oldest commit the branch has on top of the base (the one that created it) carries the trailer
 * `Autofix-Issue: <N>` and was committed with the bot's e-mail address. Later commits may come
 * from maintainers (reviews, fixups) without changing whose branch it is.
 *
 * Every bot commit also names its run (`Autofix-Run: <run id>`). A branch carrying an earlier
 * run's commits is extended (feedback on the PR), replaced from the base (an explicit fresh
 * start), or refused — never reused silently. (A retried code stage never finds its own commit
 * here: it kept it on the run's private ref, git/keep-commit.ts, and the branch only moves in the
 * last stage.)
 */
import { AutofixError } from '../errors.js';
import { assertBotBranch } from './branch-name.js';
import { type GitIdentity, ISSUE_TRAILER } from './identity.js';
import { revParse, runGit } from './run-git.js';
import { worktreeGit } from './worktree-git.js';
import type { BranchState, Workspace } from './workspace.js';

import type { ExistingBranchPolicy } from '../contracts.js';

export type { ExistingBranchPolicy } from '../contracts.js';

export interface PrepareBranchOptions {
  name: string;
  issue: number;
  identity: GitIdentity;
  /** Only reuse: the branch must already exist (a feedback commit on the bot's pull request). */
  mustExist?: boolean;
  /** Default `refuse`; `mustExist` implies `extend`. */
  existing?: ExistingBranchPolicy;
  /** How the user starts over, for the `refuse` message (a flag, a command). */
  startOverHint?: string;
}

export interface PreparedBranch extends BranchState {
  /** The other run's tip that this run's push will replace. */
  replaced?: string;
}

/** The remote tip of a bot branch; STALE_CONTEXT when it is gone and `required`. */
async function remoteTip(ws: Workspace, name: string, required: boolean): Promise<string | null> {
  assertBotBranch(name, ws.branchPrefix);
  const sha = await revParse(ws.mirrorDir, `refs/remotes/origin/${name}`);
  if (!sha && required) {
    throw new AutofixError(
      'STALE_CONTEXT',
      `branch ${name} no longer exists on the remote (was the pull request merged or closed?)`,
      { details: { branch: name }, recoverable: false },
    );
  }
  return sha;
}

async function whyNotOurs(
  ws: Workspace,
  remoteSha: string,
  issue: number,
  identity: GitIdentity,
): Promise<string | null> {
  const list = await runGit(['rev-list', '--reverse', `${ws.base_commit}..${remoteSha}`], {
    cwd: ws.mirrorDir,
  });
  const first = list.stdout.split('\n')[0]?.trim();
  if (!first) return 'it has no commits on top of the base branch';
  const info = await runGit(
    [
      'log',
      '-1',
      `--format=%ce%x00%(trailers:key=${ISSUE_TRAILER},valueonly,separator=%x2C)`,
      first,
    ],
    { cwd: ws.mirrorDir },
  );
  const [email = '', issues = ''] = info.stdout.trim().split('\0');
  if (email.toLowerCase() !== identity.email.toLowerCase()) {
    return `it was created by ${email}, not by the bot`;
  }
  const claimed = issues.split(',').map((s) => s.trim());
  if (!claimed.includes(String(issue))) {
    return `it was created for issue ${claimed.filter(Boolean).join(', ') || '(none)'}, not #${issue}`;
  }
  return null;
}

/** The committer e-mail of each commit on the branch above the base. */
async function branchCommits(ws: Workspace, tip: string): Promise<{ email: string }[]> {
  const out = await runGit(['log', '--first-parent', '--format=%ce', `${ws.base_commit}..${tip}`], {
    cwd: ws.mirrorDir,
  });
  return out.stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((email) => ({ email: email.toLowerCase() }));
}

/** Checks out `start` on a local branch `name` (reset when a crashed job left it). */
async function checkoutAt(ws: Workspace, name: string, start: string): Promise<void> {
  await worktreeGit(ws, ['checkout', '--quiet', '-B', name, start]).catch((err: unknown) => {
    const stderr = (err as AutofixError).message;
    if (/already (checked out|used by worktree)/.test(stderr)) {
      throw new AutofixError(
        'BRANCH_EXISTS',
        `branch ${name} is checked out by another running job`,
        { details: { branch: name }, recoverable: true },
      );
    }
    throw err;
  });
}

/** Creates, resumes, extends or replaces the feature branch and checks it out in the worktree. */
export async function prepareBranch(
  ws: Workspace,
  options: PrepareBranchOptions,
): Promise<PreparedBranch> {
  const remoteSha = await remoteTip(ws, options.name, options.mustExist ?? false);
  let start = ws.base_commit;
  const extra: Pick<PreparedBranch, 'replaced'> = {};
  if (remoteSha) {
    const why = await whyNotOurs(ws, remoteSha, options.issue, options.identity);
    if (why) {
      throw new AutofixError(
        'BRANCH_EXISTS',
        `branch ${options.name} already exists and is not the bot's branch for issue #${options.issue}: ${why}`,
        { details: { branch: options.name, sha: remoteSha }, recoverable: false },
      );
    }
    const commits = await branchCommits(ws, remoteSha);
    const policy = options.mustExist ? 'extend' : (options.existing ?? 'refuse');
    const email = options.identity.email.toLowerCase();
    const humans = commits.filter((c) => c.email !== email).length;
    if (policy === 'extend') start = remoteSha;
    else if (policy === 'replace' || (policy === 'replace-bot-only' && humans === 0)) {
      extra.replaced = remoteSha;
    } else {
      const short = remoteSha.slice(0, 12);
      const whose =
        humans > 0
          ? `${humans} of its ${commits.length} commit(s) are not the bot's`
          : `it holds ${commits.length} commit(s) of an earlier run (tip ${short})`;
      throw new AutofixError(
        'BRANCH_EXISTS',
        `branch ${options.name} already exists for issue #${options.issue}: ${whose}; it was left as it is` +
          (options.startOverHint ? `. ${options.startOverHint}` : ''),
        { details: { branch: options.name, sha: remoteSha }, recoverable: false },
      );
    }
  }
  await checkoutAt(ws, options.name, start);
  ws.baseline_commit = start;
  ws.branch = {
    name: options.name,
    issue: options.issue,
    remoteShaBefore: remoteSha,
    pushedSha: null,
  };
  return { ...ws.branch, ...extra };
}

/**
 * Detaches the worktree at the remote tip of an existing branch, for stages that read the code a
 * pull request already has (feedback runs plan against the PR, not against the base branch).
 */
export async function checkoutBranchTip(ws: Workspace, name: string): Promise<void> {
  const sha = await remoteTip(ws, name, true);
  await worktreeGit(ws, ['checkout', '--quiet', '--detach', sha!]);
}

/**
 * Detaches the worktree at `sha` when it is on the bot branch `name` as the remote has it now (its
 * tip or an ancestor of it); false when it is not (the branch was deleted or force-pushed past it).
 */
export async function checkoutBranchCommit(
  ws: Workspace,
  name: string,
  sha: string,
): Promise<boolean> {
  const tip = await remoteTip(ws, name, false);
  if (!tip || !/^[0-9a-f]{40}$/.test(sha)) return false;
  const onBranch = await runGit(['merge-base', '--is-ancestor', sha, tip], {
    cwd: ws.mirrorDir,
    okCodes: [1, 128],
  });
  if (onBranch.code !== 0) return false;
  await worktreeGit(ws, ['checkout', '--quiet', '--detach', sha]);
  return true;
}
