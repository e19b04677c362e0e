/**
 * Recycling of worktrees (`recycleWorktrees` > 0: the app parks 2 per repository, `autofix run`
 * 1, see local-workspace.ts). A fresh worktree costs a full checkout — for 20,000 files that is
 * most of a job's start-up time, and no faster than the checkout part of a clone. A parked
 * worktree only needs the files that changed since it was parked. Parking scrubs everything a
 * job left (a stale `index.lock`, `reset --hard`, `clean -ffdx`: ignored files too, detached HEAD,
 * the `.git` link rewritten on claim) and the pool holds at most N worktrees per repository, so
 * disk stays at one checkout per concurrent job. A claimed worktree that cannot be brought to the
 * base is dropped and replaced by a new one (workspace.ts), never parked again.
 *
 * A parked worktree is locked (as `git worktree lock` does): while it is renamed in or out of the
 * pool its recorded path is briefly wrong, and `git worktree prune` (run by other jobs) skips
 * locked entries. Parking first takes a numbered slot with `mkdir` and claiming is a `rename` of the
 * parked directory: both atomic, so concurrent jobs never share or overfill the pool.
 */
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { claimJobDir, ownedEntries, ownerIsGone } from './abandoned-jobs.js';
import { withMirrorLock } from './mirror.js';
import { removeJobDir } from './remove-job-dir.js';
import { runGit } from './run-git.js';
import { worktreeGit, type WorktreeRef } from './worktree-git.js';

const ABANDONED_MS = 10 * 60 * 1000;

export function poolDir(workdir: string, repo: string): string {
  return join(workdir, 'pool', repo);
}

async function slots(pool: string): Promise<string[]> {
  return readdir(pool).catch(() => []);
}

/**
 * Moves a parked worktree to `target` and returns its git directory, or null when the pool is
 * empty (or every parked entry turned out unusable, e.g. its mirror was re-created).
 */
export async function claimParkedWorktree(
  pool: string,
  mirrorDir: string,
  target: string,
): Promise<string | null> {
  for (const entry of await slots(pool)) {
    const slot = join(pool, entry);
    // Moving a registered worktree and repairing its link happen under the mirror lock: another
    // job's `worktree repair` or prune must never see it half moved.
    const gitDir = await withMirrorLock(mirrorDir, async () => {
      try {
        await rename(join(slot, basename(target)), target);
      } catch {
        return undefined; // another job took it, or a half-parked entry
      }
      try {
        const dir = (await readFile(join(slot, 'gitdir'), 'utf8')).trim();
        // Still the registration parking pointed at this slot (not a re-created mirror's).
        const parkedAt = join(slot, basename(target));
        if ((await registeredAt(dir)) !== parkedAt) return null;
        // Never trust the `.git` file a previous job's commands could have rewritten.
        await writeFile(join(target, '.git'), `gitdir: ${dir}\n`);
        await pointRegistrationAt(dir, target);
        await lockRegistration(dir, false);
        return dir;
      } catch {
        return null;
      }
    });
    if (gitDir === undefined) continue;
    await rm(slot, { recursive: true, force: true });
    if (gitDir !== null) return gitDir;
    await removeJobDir(target, mirrorDir, async () => {
      await runGit(['worktree', 'prune'], { cwd: mirrorDir });
    });
  }
  return null;
}

/**
 * A linked worktree's registration (`<mirror>/worktrees/<id>/`, gitrepository-layout(5)) points
 * back at its `.git` file through `gitdir`, and a `locked` file there keeps `git worktree prune`
 * away. Parking and claiming move the worktree and write these two small files directly, under
 * the mirror lock, where `git worktree repair|lock|unlock` would be a process each.
 */
async function pointRegistrationAt(gitDir: string, worktree: string): Promise<void> {
  await writeFile(join(gitDir, 'gitdir'), `${join(worktree, '.git')}\n`);
}

/** The worktree folder the registration points at. */
async function registeredAt(gitDir: string): Promise<string> {
  return dirname((await readFile(join(gitDir, 'gitdir'), 'utf8')).trim());
}

async function lockRegistration(gitDir: string, locked: boolean): Promise<void> {
  const file = join(gitDir, 'locked');
  if (locked) await writeFile(file, 'parked in the autofix pool');
  else await rm(file, { force: true });
}

/** Brings a claimed worktree to `sha` with nothing left from its previous job. */
export async function refreshWorktree(ref: WorktreeRef, sha: string): Promise<void> {
  await worktreeGit(ref, [
    '-c',
    'checkout.workers=0',
    'checkout',
    '--quiet',
    '--force',
    '--detach',
    sha,
  ]);
  await worktreeGit(ref, ['clean', '-q', '-ffdx']);
}

/** What a job left in its worktree that parking must scrub (the caller's `git status` says). */
export interface LeftInWorktree {
  /** Tracked files changed, staged or not: `reset --hard`. */
  changed: boolean;
  /** Untracked or ignored paths: `clean -ffdx`. */
  untracked: boolean;
}

const EVERYTHING: LeftInWorktree = { changed: true, untracked: true };

/**
 * Scrubs and parks a job's worktree; false when the pool is full or parking failed (the caller
 * then removes it). Only what `left` names is scrubbed (each step is a git process; a claim
 * checks the worktree out again and checks it is clean anyway).
 * The job's local branch must be deleted by the caller afterwards (HEAD is detached here).
 */
export async function parkWorktree(
  pool: string,
  mirrorDir: string,
  ref: WorktreeRef,
  max: number,
  left: LeftInWorktree = EVERYTHING,
): Promise<boolean> {
  const slot = await reserveSlot(pool, max);
  if (!slot) return false;
  try {
    // The job is over: a lock left by a git command it killed (a timeout) would fail the reset.
    await rm(join(ref.gitDir, 'index.lock'), { force: true });
    if (left.changed) await worktreeGit(ref, ['reset', '--quiet', '--hard']);
    if (left.untracked) await worktreeGit(ref, ['clean', '-q', '-ffdx']);
    // Our own record of the worktree's HEAD (never the worktree's `.git` file, see worktree-git).
    const head = await readFile(join(ref.gitDir, 'HEAD'), 'utf8');
    if (head.startsWith('ref:')) await worktreeGit(ref, ['checkout', '--quiet', '--detach']);
    await writeFile(join(slot, 'gitdir'), ref.gitDir);
    await withMirrorLock(mirrorDir, async () => {
      await lockRegistration(ref.gitDir, true);
      const parked = join(slot, basename(ref.worktree));
      try {
        await rename(ref.worktree, parked);
        await pointRegistrationAt(ref.gitDir, parked);
      } catch (err) {
        // Unlocked again so the caller's removal and prune can forget it.
        await lockRegistration(ref.gitDir, false);
        throw err;
      }
    });
    return true;
  } catch {
    await rm(slot, { recursive: true, force: true });
    return false;
  }
}

/** Slots are `slot-0` … `slot-<max-1>`; `mkdir` makes taking one atomic across processes. */
async function reserveSlot(pool: string, max: number): Promise<string | null> {
  await mkdir(pool, { recursive: true });
  for (let i = 0; i < max; i++) {
    const slot = join(pool, `slot-${i}`);
    try {
      await mkdir(slot);
      await claimJobDir(slot, '');
      return slot;
    } catch {
      await dropAbandoned(slot);
    }
  }
  return null;
}

/** Frees the pool's slots whose parking never finished (see dropAbandoned). Never throws. */
export async function sweepAbandonedSlots(pool: string): Promise<void> {
  for (const entry of await slots(pool)) {
    await dropAbandoned(join(pool, entry)).catch(() => false);
  }
}

/**
 * A slot whose parking never finished (the worker died) is freed at once when its owner process
 * is known to be gone, else after a while (another process may still be parking into it).
 */
export async function dropAbandoned(slot: string): Promise<boolean> {
  const info = await stat(join(slot, 'gitdir')).catch(() => stat(slot).catch(() => null));
  const entries = (await ownedEntries(slot)) ?? ['?', '?'];
  if (!info || entries.length >= 2) return false;
  if (Date.now() - info.mtimeMs > ABANDONED_MS || (await ownerIsGone(slot))) {
    await rm(slot, { recursive: true, force: true });
    return true;
  }
  return false;
}
