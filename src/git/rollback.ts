/**
 * Undoes a job (docs/SECURITY.md, rule 5): `git reset --hard <baseline>` and `git clean -fd`
 * in the worktree, the local branch deleted, and the remote branch put back to where it was
 * before this job pushed (deleted if this job created it), and the run's private ref (the kept,
 * unpublished commit) deleted. The mirror's fetched refs and objects
 * are not touched.
 *
 * Idempotent and crash-safe: every step checks the current state first, so a second call, or a
 * call from another process with a persisted `Workspace` record, finishes what is left and
 * reports instead of throwing (a rollback runs on a failure path; the original error is what the
 * user must read).
 *
 * It usually runs right after repository code failed, so the mirror is scrubbed first (`reset
 * --hard` would run a smudge filter planted during the job), and the remote programs are named
 * on the command line (`--upload-pack`, `--receive-pack`) over any `remote.<url>.*` setting.
 */
import { access } from 'node:fs/promises';
import type { Logger } from '../logger.js';
import { assertBotBranch } from './branch-name.js';
import { withMirrorLock } from './mirror.js';
import { remoteRefSha } from './keep-commit.js';
import { pushRefs, RECEIVE_PACK } from './push.js';
import { runGit } from './run-git.js';
import { scrubMirrorLocked } from './scrub-mirror-locked.js';
import { worktreeGit } from './worktree-git.js';
import type { Workspace } from './workspace.js';

export interface RollbackOptions {
  token?: string;
  /** Where a tampered mirror is reported. */
  logger?: Logger;
}

export interface RollbackReport {
  done: string[];
  problems: string[];
}

const remoteSha = (ws: Workspace, ref: string, token?: string): Promise<string | null> =>
  remoteRefSha(ws, ref, token ? { token } : {});

async function rollbackRemote(ws: Workspace, token: string | undefined, report: RollbackReport) {
  const branch = ws.branch;
  if (!branch?.pushedSha) return;
  assertBotBranch(branch.name, ws.branchPrefix);
  const ref = `refs/heads/${branch.name}`;
  const target = branch.remoteShaBefore; // null: the branch did not exist before this job
  const current = await remoteSha(ws, ref, token);
  if (current === target) {
    branch.pushedSha = null; // already rolled back (an earlier call, or another process)
    return;
  }
  if (current !== branch.pushedSha) {
    report.problems.push(
      `remote ${branch.name} is at ${current ?? '(deleted)'}, not at our push ${branch.pushedSha}; left alone`,
    );
    return;
  }
  const spec = target ? `${target}:${ref}` : `:${ref}`;
  const push = await runGit(
    [
      'push',
      '--porcelain',
      '--no-verify',
      RECEIVE_PACK,
      `--force-with-lease=${ref}:${branch.pushedSha}`,
      ws.remoteUrl,
      spec,
    ],
    { cwd: ws.mirrorDir, token, okCodes: [1, 128] },
  );
  if (push.code === 0) {
    report.done.push(
      target ? `reset remote ${branch.name} to ${target}` : `deleted remote ${branch.name}`,
    );
    branch.pushedSha = null;
  } else {
    report.problems.push(`could not roll back remote ${branch.name}: ${push.stderr.trim()}`);
  }
}

/** Deletes the run's private ref (git/keep-commit.ts) if it still holds this run's commit. */
async function rollbackKept(ws: Workspace, token: string | undefined, report: RollbackReport) {
  const kept = ws.branch?.kept;
  if (!kept) return;
  const current = await remoteSha(ws, kept.ref, token);
  if (current === null) {
    ws.branch!.kept = null;
    return;
  }
  if (current !== kept.sha) {
    report.problems.push(`${kept.ref} is at ${current}, not at ${kept.sha}; left alone`);
    return;
  }
  try {
    await pushRefs(ws, [{ ref: kept.ref, to: null, expect: kept.sha }], {
      ...(token ? { token } : {}),
      what: `deleting ${kept.ref}`,
    });
    report.done.push(`deleted ${kept.ref}`);
    ws.branch!.kept = null;
  } catch (err) {
    report.problems.push(`could not delete ${kept.ref}: ${(err as Error).message}`);
  }
}

export async function rollbackWorkspace(
  ws: Workspace,
  options: RollbackOptions = {},
): Promise<RollbackReport> {
  const report: RollbackReport = { done: [], problems: [] };
  const step = async (what: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
      report.done.push(what);
    } catch (err) {
      report.problems.push(`${what}: ${(err as Error).message}`);
    }
  };

  const exists = (path: string) =>
    access(path).then(
      () => true,
      () => false,
    );
  // A rollback must still try the rest when the scrub fails (a lock held too long).
  if (await exists(ws.mirrorDir))
    await step('scrub mirror', () => scrubMirrorLocked(ws.mirrorDir, options.logger));
  const hasWorktree = await exists(ws.worktree);
  if (hasWorktree) {
    await step(`reset --hard ${ws.baseline_commit}`, () =>
      worktreeGit(ws, ['reset', '--quiet', '--hard', ws.baseline_commit]),
    );
    await step('clean -fd', () => worktreeGit(ws, ['clean', '-q', '-fd']));
    // Off the branch, so it can be deleted; the files stay at the baseline.
    await step('detach HEAD', () =>
      worktreeGit(ws, ['checkout', '--quiet', '--detach', ws.baseline_commit]),
    );
  }
  if (ws.branch) {
    const name = ws.branch.name;
    const local = await withMirrorLock(ws.mirrorDir, () =>
      runGit(['branch', '--quiet', '-D', name], { cwd: ws.mirrorDir, okCodes: [1] }),
    ).catch((err: Error) => ({ code: -1, stderr: err.message }));
    if (local.code === 0) report.done.push(`deleted local ${name}`);
    else if (!/not found/.test(local.stderr)) {
      report.problems.push(`could not delete local ${name}: ${local.stderr.trim()}`);
    }
  }
  await rollbackRemote(ws, options.token, report).catch((err: Error) =>
    report.problems.push(`remote rollback: ${err.message}`),
  );
  await rollbackKept(ws, options.token, report).catch((err: Error) =>
    report.problems.push(`private ref rollback: ${err.message}`),
  );
  return report;
}
