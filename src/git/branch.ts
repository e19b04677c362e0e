/**
 * Puts the job's worktree on its feature branch. A branch that already exists on the remote is
 * reused only when it is ours for the same issue; anything else is `BRANCH_EXISTS`, because
 * committing onto someone else's branch (or another issue's) would hijack their work.
 *
 * "Ours for the same issue" is read from the branch's history, not from a side table: the
 * oldest commit the branch has on top of the base (the one that created it) carries the trailer
 * `Autofix-Issue: <N>` and was committed with the bot's e-mail address. Later commits may come
 * from maintainers (reviews, fixups) without changing whose branch it is.
 */
import { AutofixError } from '../errors.js';
import { assertBotBranch } from './branch-name.js';
import { type GitIdentity, ISSUE_TRAILER } from './identity.js';
import { revParse, runGit } from './run-git.js';
import { worktreeGit } from './worktree-git.js';
import type { BranchState, Workspace } from './workspace.js';

export interface PrepareBranchOptions {
  name: string;
  issue: number;
  identity: GitIdentity;
  /** Only reuse: the branch must already exist (a feedback commit on the bot's pull request). */
  mustExist?: boolean;
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

/** Creates or reuses the feature branch and checks it out in the worktree. */
export async function prepareBranch(
  ws: Workspace,
  options: PrepareBranchOptions,
): Promise<BranchState> {
  const remoteSha = await remoteTip(ws, options.name, options.mustExist ?? false);
  if (remoteSha) {
    const why = await whyNotOurs(ws, remoteSha, options.issue, options.identity);
    if (why) {
      throw new AutofixError(
        'BRANCH_EXISTS',
        `branch ${options.name} already exists and is not the bot's branch for issue #${options.issue}: ${why}`,
        { details: { branch: options.name, sha: remoteSha }, recoverable: false },
      );
    }
  }
  const start = remoteSha ?? ws.base_commit;
  // -B: a local branch left by a crashed job is reset to where this job starts.
  await worktreeGit(ws, ['checkout', '--quiet', '-B', options.name, start]).catch(
    (err: unknown) => {
      const stderr = (err as AutofixError).message;
      if (/already (checked out|used by worktree)/.test(stderr)) {
        throw new AutofixError(
          'BRANCH_EXISTS',
          `branch ${options.name} is checked out by another running job`,
          { details: { branch: options.name }, recoverable: true },
        );
      }
      throw err;
    },
  );
  ws.baseline_commit = start;
  ws.branch = {
    name: options.name,
    issue: options.issue,
    remoteShaBefore: remoteSha,
    pushedSha: null,
  };
  return ws.branch;
}

/**
 * Detaches the worktree at the remote tip of an existing branch, for stages that read the code a
 * pull request already has (feedback runs plan against the PR, not against the base branch).
 */
export async function checkoutBranchTip(ws: Workspace, name: string): Promise<void> {
  const sha = await remoteTip(ws, name, true);
  await worktreeGit(ws, ['checkout', '--quiet', '--detach', sha!]);
}
