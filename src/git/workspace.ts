/**
 * A job's working copy (docs/ARCHITECTURE.md; docs/SECURITY.md, rule 5): a `git worktree` of the
 * repository's mirror at the base branch head, in its own job directory, removed when the job ends
 * whatever the outcome. It shares the mirror's objects, so it costs one checkout of disk and no
 * history transfer.
 *
 * The `Workspace` record is plain JSON: the code stage can persist it and a later process can
 * still `rollbackWorkspace` / `closeWorkspace` after a crash.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { AutofixError } from '../errors.js';
import type { Logger } from '../logger.js';
import { assertBranchPrefix, DEFAULT_BRANCH_PREFIX } from './branch-name.js';
import { assertNoCredentials, mirrorDir, updateMirror, withMirrorLock } from './mirror.js';
import { claimJobDir, sweepAbandonedJobs } from './abandoned-jobs.js';
import { jobPaths } from './job-paths.js';
import { allClosed, jobClosed, parkingOn, trackClose } from './pending-closes.js';
import { removeJobDir } from './remove-job-dir.js';
import { runGit } from './run-git.js';
import { scrubMirrorLocked } from './scrub-mirror-locked.js';
import { worktreeGit, type WorktreeRef } from './worktree-git.js';
import {
  claimParkedWorktree,
  parkWorktree,
  poolDir,
  type LeftInWorktree,
  refreshWorktree,
  sweepAbandonedSlots,
} from './worktree-pool.js';

export interface WorkspaceOptions {
  /** `AUTOFIX_WORKDIR`. */
  workdir: string;
  /** `owner/name`. */
  repo: string;
  /** Remote URL without credentials. */
  remoteUrl: string;
  baseBranch: string;
  branchPrefix?: string;
  /** Names the job directory; a retry with the same id replaces what a crashed attempt left. */
  jobId?: string;
  token?: string;
  lockTimeoutMs?: number;
  /**
   * Park up to this many scrubbed worktrees per repository for later jobs instead of removing
   * them (see worktree-pool.ts). 0, the default, removes every worktree when its job ends.
   */
  recycleWorktrees?: number;
  /** Work from this commit (an earlier stage's base) instead of the base branch head. */
  pinnedBase?: string;
  /** 'if-missing' skips the fetch when the mirror already has `pinnedBase`. Default 'always'. */
  fetch?: 'always' | 'if-missing';
  logger?: Logger;
}

export interface BranchState {
  name: string;
  issue: number;
  /** The remote branch's sha when this job started; null when it did not exist. */
  remoteShaBefore: string | null;
  /** The last sha this job pushed; null when nothing (or everything was rolled back). */
  pushedSha: string | null;
  /** The commit this run keeps on its private ref until it is published (git/keep-commit.ts). */
  kept?: { ref: string; sha: string } | null;
}

export interface Workspace {
  workdir: string;
  repo: string;
  remoteUrl: string;
  mirrorDir: string;
  jobDir: string;
  /** The checkout the job edits and validates. */
  worktree: string;
  /** Its git directory in the mirror; our git commands use it instead of the `.git` file. */
  gitDir: string;
  /** Writable HOME and TMPDIR for repository commands, outside the checkout. */
  homeDir: string;
  tmpDir: string;
  baseBranch: string;
  branchPrefix: string;
  /** Base branch head when the job started. */
  base_commit: string;
  /** What rollback returns to: the base head, or the tip of a reused bot branch. */
  baseline_commit: string;
  branch: BranchState | null;
  /** The repository's package caches (npm, pip, yarn…), shared by its jobs' `setup` commands. */
  cacheDir: string;
  /** For the sandbox: hide the whole workdir except this job's own paths… */
  sandboxHidden: string[];
  /**
   * …and show, read-only, what git inside the sandbox needs for this worktree: its own git
   * directory and the mirror's objects and refs — not the other jobs' worktree entries, nor
   * anything writable. The worktree's `.git` link stays read-only too.
   */
  sandboxReadOnly: string[];
  recycleWorktrees: number;
}

const JOB_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** How long an open waits for a close under way in this process before going on without it. */
const CLOSE_WAIT_MS = 30_000;

/** Names git accepted before, so each job does not spawn git to ask again. */
const validBranchNames = new Set<string>();

async function assertBranchName(cwd: string, name: string): Promise<void> {
  if (validBranchNames.has(name)) return;
  const r = await runGit(['check-ref-format', '--branch', name], { cwd, okCodes: [1, 128] });
  if (r.code !== 0) {
    throw new AutofixError('INTERNAL', `not a valid branch name: ${JSON.stringify(name)}`, {
      recoverable: false,
    });
  }
  if (validBranchNames.size < 1000) validBranchNames.add(name);
}

/** The worktree is clean and, when `head` is given, checked out at it (one `git status`). */
export async function assertCleanWorktree(ref: WorktreeRef, head?: string): Promise<void> {
  const status = await worktreeGit(ref, [
    'status',
    '--porcelain=v2',
    '--branch',
    '--untracked-files=all',
  ]);
  const lines = status.stdout.split('\n').filter(Boolean);
  const changes = lines.filter((l) => !l.startsWith('# '));
  if (changes.length > 0) {
    throw new AutofixError(
      'INTERNAL',
      `worktree ${ref.worktree} is not clean:\n${changes.join('\n')}`,
      { recoverable: true },
    );
  }
  const oid = lines.find((l) => l.startsWith('# branch.oid '))?.slice('# branch.oid '.length);
  if (head !== undefined && oid !== head) {
    throw new AutofixError('INTERNAL', `worktree HEAD ${oid ?? '?'} is not the base ${head}`);
  }
}

/** Registers a worktree at `sha` without writing its files (checkOutNewWorktree). Under the lock. */
async function addWorktree(mirror: string, worktree: string, sha: string): Promise<void> {
  // A crashed attempt of the same job may have left its registration behind its folder.
  await runGit(['worktree', 'prune'], { cwd: mirror });
  await runGit(['worktree', 'add', '--quiet', '--no-checkout', '--detach', worktree, sha], {
    cwd: mirror,
  });
}

/**
 * Writes every file of a worktree that `addWorktree` registered: for 20,000 files, 20,000 file
 * creations, as many as a clone's checkout (bench:workspace). Recycled worktrees skip it.
 */
async function checkOutNewWorktree(ws: Workspace): Promise<void> {
  // Read now, before any repository code has run in the worktree.
  ws.gitDir = (
    await runGit(['rev-parse', '--absolute-git-dir'], { cwd: ws.worktree })
  ).stdout.trim();
  await worktreeGit(ws, ['-c', 'checkout.workers=0', 'reset', '--quiet', '--hard', ws.base_commit]);
  await assertCleanWorktree(ws, ws.base_commit);
}

/** Removes the job's worktree (not its job folder) and makes git forget it, under the lock. */
async function dropWorktree(ws: Workspace, lockTimeoutMs?: number): Promise<void> {
  await removeJobDir(
    ws.worktree,
    ws.mirrorDir,
    () => runGit(['worktree', 'prune'], { cwd: ws.mirrorDir }).then(() => undefined),
    lockTimeoutMs,
  );
  ws.gitDir = '';
}

/** The read-only view of the repository that git inside the sandbox gets (see `Workspace`). */
function gitView(ws: Workspace): string[] {
  return [
    ws.gitDir,
    ...['HEAD', 'config', 'objects', 'refs', 'packed-refs', 'info', 'shallow'].map((p) =>
      join(ws.mirrorDir, p),
    ),
    join(ws.worktree, '.git'),
  ];
}

/** The job's branch prefix and id, checked, and the workdir made. */
async function checkJobOptions(
  options: WorkspaceOptions,
): Promise<{ branchPrefix: string; jobId: string }> {
  const branchPrefix = options.branchPrefix ?? DEFAULT_BRANCH_PREFIX;
  assertBranchPrefix(branchPrefix);
  const jobId = options.jobId ?? randomUUID();
  if (!JOB_ID.test(jobId) || jobId === '.' || jobId === '..') {
    throw new AutofixError('INTERNAL', `bad job id ${JSON.stringify(jobId)}`, {
      recoverable: false,
    });
  }
  assertNoCredentials(options.remoteUrl);
  await mkdir(options.workdir, { recursive: true });
  await assertBranchName(options.workdir, options.baseBranch);
  return { branchPrefix, jobId };
}

/** The record of a workspace not opened yet: its paths, no commit, no git directory. */
function workspaceRecord(
  options: WorkspaceOptions,
  jobId: string,
  branchPrefix: string,
): Workspace {
  const { jobDir, worktree } = jobPaths(options.workdir, jobId, options.repo);
  return {
    workdir: options.workdir,
    repo: options.repo,
    remoteUrl: options.remoteUrl,
    mirrorDir: mirrorDir(options.workdir, options.repo),
    jobDir,
    worktree,
    gitDir: '',
    homeDir: join(jobDir, 'home'),
    tmpDir: join(jobDir, 'tmp'),
    baseBranch: options.baseBranch,
    branchPrefix,
    base_commit: '',
    baseline_commit: '',
    branch: null,
    cacheDir: join(options.workdir, 'caches', options.repo),
    sandboxHidden: [options.workdir],
    sandboxReadOnly: [],
    recycleWorktrees: options.recycleWorktrees ?? 0,
  };
}

/** A fresh job folder (with HOME and TMPDIR) owned by this process; what dead jobs left, swept. */
async function prepareJobDir(ws: Workspace, options: WorkspaceOptions): Promise<void> {
  // A retried job reuses its id: what a crashed attempt left is dropped and git forgets its
  // worktree (a registration whose folder is gone already is forgotten before a worktree is
  // added at its path: addWorktree).
  if (existsSync(ws.jobDir)) {
    await removeJobDir(
      ws.jobDir,
      ws.mirrorDir,
      () => runGit(['worktree', 'prune'], { cwd: ws.mirrorDir }).then(() => undefined),
      options.lockTimeoutMs,
    );
  }
  await mkdir(ws.homeDir, { recursive: true });
  await mkdir(ws.tmpDir, { recursive: true });
  await claimJobDir(ws.jobDir, ws.mirrorDir);
  // What killed workers left behind (their retries ran elsewhere); cheap when there is none.
  await sweepAbandonedJobs(options.workdir, options.logger);
  await sweepAbandonedSlots(poolDir(options.workdir, options.repo));
}

/**
 * Brings a claimed parked worktree to the base; false when it cannot be, after replacing it with
 * a new registered (not yet checked out) worktree.
 */
async function refreshParked(ws: Workspace, options: WorkspaceOptions): Promise<boolean> {
  try {
    await refreshWorktree(ws, ws.base_commit);
    await assertCleanWorktree(ws, ws.base_commit);
    return true;
  } catch (err) {
    // Never handed on: a parked worktree that cannot be brought to the base would fail every
    // later job too. This job gets a new one.
    options.logger?.warn({ err, worktree: ws.worktree }, 'recycled worktree unusable; replaced');
    await dropWorktree(ws, options.lockTimeoutMs);
    await withMirrorLock(
      ws.mirrorDir,
      () => addWorktree(ws.mirrorDir, ws.worktree, ws.base_commit),
      options.lockTimeoutMs,
    );
    return false;
  }
}

/**
 * A parked worktree of the pool; when there is none but this process is parking one (a stage
 * that just ended, closing in the background), that one, once parked.
 */
async function claimFromPool(ws: Workspace): Promise<string | null> {
  const claim = () => claimParkedWorktree(poolDir(ws.workdir, ws.repo), ws.mirrorDir, ws.worktree);
  const parked = await claim();
  if (parked || !(await parkingOn(ws.mirrorDir, CLOSE_WAIT_MS))) return parked;
  return claim();
}

/**
 * Fetches the base into the mirror and puts the job's worktree at it: a parked one claimed and
 * refreshed when the pool has one, else a new one checked out. Says whether a parked one served
 * and when the fetch ended.
 */
async function checkOutBase(
  ws: Workspace,
  options: WorkspaceOptions,
): Promise<{ recycled: boolean; fetched: number }> {
  const mirror = ws.mirrorDir;
  let parked = ws.recycleWorktrees > 0 ? await claimFromPool(ws) : null;
  // Claimed, it is this job's: if the fetch fails, closing parks it again instead of losing it.
  if (parked) ws.gitDir = parked;
  ws.base_commit = await withMirrorLock(
    mirror,
    async () => {
      const baseSha = await updateMirror(mirror, { ...options, branchPrefix: ws.branchPrefix });
      // Only registering the worktree needs the lock; its checkout runs outside, in parallel
      // with other jobs.
      if (!parked) await addWorktree(mirror, ws.worktree, baseSha);
      return baseSha;
    },
    options.lockTimeoutMs,
  );
  ws.baseline_commit = ws.base_commit;
  const fetched = performance.now();
  if (parked && !(await refreshParked(ws, options))) parked = null;
  if (!parked) await checkOutNewWorktree(ws);
  return { recycled: parked !== null, fetched };
}

export async function openWorkspace(options: WorkspaceOptions): Promise<Workspace> {
  const { branchPrefix, jobId } = await checkJobOptions(options);
  const ws = workspaceRecord(options, jobId, branchPrefix);
  const started = performance.now();
  // An earlier attempt of this job still closing in this process: its folder gone first.
  await jobClosed(ws.jobDir, CLOSE_WAIT_MS);
  await prepareJobDir(ws, options);
  try {
    const { recycled, fetched } = await checkOutBase(ws, options);
    ws.sandboxReadOnly = gitView(ws);
    options.logger?.info(
      {
        repo: ws.repo,
        base: ws.base_commit,
        fetch_ms: Math.round(fetched - started),
        checkout_ms: Math.round(performance.now() - fetched),
        recycled,
      },
      'workspace ready',
    );
    return ws;
  } catch (err) {
    await closeWorkspace(ws).catch(() => undefined);
    throw err;
  }
}

/**
 * Ends a job: parks (see worktree-pool.ts) or deletes the worktree, deletes the job directory,
 * then, under the mirror lock, forgets the worktree (`git worktree prune`) and deletes the job's
 * local branch (the remote branch, if pushed, is what the PR uses). Safe to call twice and on a
 * half-opened workspace. The mirror's fetched refs and objects are left as they are.
 */
export async function closeWorkspace(
  ws: Workspace,
  logger?: Logger,
  onReleased?: () => void,
): Promise<void> {
  // Parking runs `reset --hard` in the worktree: a filter planted during the job must be gone.
  const parkable =
    ws.recycleWorktrees > 0 && ws.gitDir !== '' && existsSync(join(ws.mirrorDir, 'HEAD'));
  const parked =
    parkable &&
    (await scrubMirrorLocked(ws.mirrorDir, logger)
      .then(() => setAsideUntracked(ws))
      .then((left) =>
        parkWorktree(poolDir(ws.workdir, ws.repo), ws.mirrorDir, ws, ws.recycleWorktrees, left),
      )
      .catch(() => false));
  onReleased?.();
  await removeJobDir(ws.jobDir, ws.mirrorDir, async () => {
    if (!parked) await runGit(['worktree', 'prune'], { cwd: ws.mirrorDir });
    if (ws.branch) {
      await runGit(['branch', '--quiet', '-D', ws.branch.name], {
        cwd: ws.mirrorDir,
        okCodes: [1], // no such branch, or checked out by another worktree
      });
    }
  });
}

/**
 * What git does not track (installed dependencies, builds, the job's own files) renamed out of
 * the worktree into the job's folder before parking: the pool's `git clean` then has nothing to
 * delete, and the job folder's removal takes it all, after the worktree is parked. Says what
 * parking still has to scrub: tracked files changed, untracked paths that could not be moved.
 */
async function setAsideUntracked(ws: Workspace): Promise<LeftInWorktree> {
  const status = await worktreeGit(ws, [
    'status',
    '--porcelain=v1',
    '-z',
    '--ignored=traditional',
    '--untracked-files=normal',
  ]);
  const entries = status.stdout.split('\0').filter(Boolean);
  const untracked = (e: string): boolean => e.startsWith('!! ') || e.startsWith('?? ');
  const paths = entries.filter(untracked).map((e) => e.slice(3).replace(/\/$/, ''));
  const aside = join(ws.jobDir, 'set-aside');
  await mkdir(aside, { recursive: true });
  let n = 0;
  let stuck = false;
  for (const p of paths) {
    // Whatever cannot be moved stays for `git clean`.
    await rename(join(ws.worktree, p), join(aside, String(n++))).catch(() => (stuck = true));
  }
  // Anything else is a tracked change (a rename's second path is its own NUL-separated entry).
  return { changed: entries.some((e) => !untracked(e)), untracked: stuck };
}

/**
 * Closes the workspace off the caller's path (issue #38): returns at once; the worktree is
 * parked or removed in the background (pending-closes.ts says who waits for it: a job opening
 * on the same mirror, a retry of the same job, shutdown through `workspacesClosed`). A failure
 * is logged, never thrown.
 */
export function closeWorkspaceLater(ws: Workspace, logger?: Logger): void {
  let release = (): void => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const done = closeWorkspace(ws, logger, release)
    .catch((err: unknown) => logger?.warn({ err: String(err) }, 'workspace cleanup failed'))
    .finally(release);
  trackClose({ mirrorDir: ws.mirrorDir, jobDir: ws.jobDir, released, done });
}

/** Every workspace this process closes in the background is closed (true), or time ran out. */
export function workspacesClosed(timeoutMs: number): Promise<boolean> {
  return allClosed(timeoutMs);
}

/** Opens a workspace, runs `fn`, and closes the workspace whatever happens. */
export async function withWorkspace<T>(
  options: WorkspaceOptions,
  fn: (ws: Workspace) => Promise<T>,
): Promise<T> {
  const ws = await openWorkspace(options);
  let result: T;
  try {
    result = await fn(ws);
  } catch (err) {
    // The job's own failure is what the user needs to read; a cleanup problem is only logged.
    await closeWorkspace(ws, options.logger).catch((closeErr: unknown) =>
      options.logger?.warn({ err: closeErr }, 'workspace cleanup failed'),
    );
    throw err;
  }
  await closeWorkspace(ws, options.logger);
  return result;
}
