/**
 * Setup once per run (issue #38): the app runs each stage in its own worktree, so what one
 * stage's setup left there (installed, or restored from the cache) is handed to the run's next
 * stage that sets up by renaming the paths, not restored from the cache a second time. A rename
 * costs the same for 30 files or 30,000.
 *
 * - The giving stage, before its worktree is closed, moves the paths its setup produced (the
 *   cache entry's manifest lists them) and the tracked files setup rewrote into
 *   `<workdir>/setup-handoff/<owner>/<name>/<receiving job id>/`, with a record of the key.
 * - The receiving job claims that folder with one rename (a retried attempt finds nothing and
 *   restores from the cache instead), checks the key is its own and the paths are absent, and
 *   renames them into its worktree. Files that embed the giving job's path are rewritten for its
 *   own, from what the giving stage left: only regular files (read without following a link)
 *   and links' targets, so a link planted by a sandboxed command is never read through.
 * - A hand-off carries what the giving stage's commands changed, as one worktree for the whole
 *   run would (`autofix run`). It is never seen by another run: it is named by the receiving
 *   job, and hidden from the sandbox with the rest of the workdir.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import {
  chmod,
  lstat,
  mkdir,
  open,
  readFile,
  readdir,
  readlink,
  rename,
  rm,
  stat,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { cacheRoot } from './layout.js';
import { relocateText } from './relocate.js';
import { absent, readManifest } from './restore.js';

/** The job folder's record of the key its worktree was last set up for. */
export const setupDoneFile = (jobDir: string): string => join(jobDir, 'setup-done-key');

/**
 * Hand-offs no job took (a crash between stages) are removed after this long; a stage that
 * waited longer in its queue restores from the cache instead.
 */
export const STALE_HANDOFF_MS = 60 * 60 * 1000;
/** A relocated file larger than this is not rewritten (venv scripts and `.pth` files are tiny). */
const RELOCATE_MAX_BYTES = 1 << 20;
const RECORD = 'handoff.json';

export interface HandOffJob {
  workdir: string;
  /** `owner/name`. */
  repo: string;
  worktree: string;
  jobDir: string;
}

interface HandOffRecord {
  version: 1;
  key: string;
  /** The giving job's folder: what relocated files embed. */
  jobDir: string;
  /** Relative to the worktree: what setup produced (absent from a fresh worktree). */
  products: string[];
  /** The tracked files setup rewrote (they replace the checked-out ones). */
  tracked: string[];
  /** Files and links under `products` that embed `jobDir`. */
  relocate: string[];
}

export type HandOffResult =
  { handed: true; key: string; paths: number; ms: number } | { handed: false; reason: string };

export type TakeResult =
  | { taken: true; key: string; paths: number; relocated: number; ms: number }
  | { taken: false; reason: string };

export const handOffRoot = (workdir: string, repo: string): string =>
  join(workdir, 'setup-handoff', repo);

const handOffDir = (workdir: string, repo: string, jobId: string): string =>
  join(handOffRoot(workdir, repo), jobId);

const aside = (dir: string, what: string): string =>
  `${dir}.${what}-${process.pid}-${randomBytes(4).toString('hex')}`;

/** Moves `rel` from one tree to another (parents made), the entry itself: never followed. */
async function move(fromRoot: string, toRoot: string, rel: string): Promise<void> {
  await mkdir(dirname(join(toRoot, rel)), { recursive: true });
  await rename(join(fromRoot, rel), join(toRoot, rel));
}

/**
 * The giving side: hands what this job's setup produced to job `toJobId` of the same run. Nothing
 * to hand (no setup passed here, no cache entry that lists what it made): a reason, no change.
 */
export async function handOffSetup(job: HandOffJob, toJobId: string): Promise<HandOffResult> {
  const started = performance.now();
  const key = (await readFile(setupDoneFile(job.jobDir), 'utf8').catch(() => '')).trim();
  if (!key) return { handed: false, reason: 'no setup passed in this job' };
  const manifest = await readManifest(cacheRoot(job.workdir, job.repo), key);
  if (!manifest) return { handed: false, reason: 'no cache entry lists what setup made' };
  const tracked = manifest.tracked.map((t) => t.p);
  const paths = [...manifest.products, ...tracked];
  for (const p of paths) {
    const s = await lstat(join(job.worktree, p)).catch(() => undefined);
    if (!s?.isDirectory() && !s?.isFile()) return { handed: false, reason: `${p} is not as made` };
  }
  const dir = handOffDir(job.workdir, job.repo, toJobId);
  await discardAt(dir);
  const building = aside(dir, 'building');
  await mkdir(join(building, 'paths'), { recursive: true });
  const record: HandOffRecord = {
    version: 1,
    key,
    jobDir: job.jobDir,
    products: manifest.products,
    tracked,
    relocate: manifest.relocate,
  };
  try {
    for (const p of paths) await move(job.worktree, join(building, 'paths'), p);
    await writeFile(join(building, RECORD), JSON.stringify(record));
    await rename(building, dir);
  } catch (err) {
    await rm(building, { recursive: true, force: true });
    return { handed: false, reason: `hand-off failed: ${(err as Error).message}` };
  }
  await sweepStale(handOffRoot(job.workdir, job.repo));
  return { handed: true, key, paths: paths.length, ms: Math.round(performance.now() - started) };
}

/** Removes what was handed to `jobId`, if anything (its run ended before taking it). */
export async function discardHandOff(workdir: string, repo: string, jobId: string): Promise<void> {
  await discardAt(handOffDir(workdir, repo, jobId));
}

async function discardAt(dir: string): Promise<void> {
  const trash = aside(dir, 'trash');
  try {
    await rename(dir, trash);
  } catch {
    return; // nothing there
  }
  await rm(trash, { recursive: true, force: true });
}

/** Hand-offs older than `STALE_HANDOFF_MS`, and half-made or half-taken ones as old. */
export async function sweepStale(root: string, now = Date.now()): Promise<void> {
  const names = await readdir(root).catch(() => [] as string[]);
  for (const name of names) {
    const s = await stat(join(root, name)).catch(() => undefined);
    if (s && now - s.mtimeMs > STALE_HANDOFF_MS)
      await rm(join(root, name), { recursive: true, force: true });
  }
}

async function readRecord(dir: string): Promise<HandOffRecord | undefined> {
  try {
    const r = JSON.parse(await readFile(join(dir, RECORD), 'utf8')) as HandOffRecord;
    const lists = [r.products, r.tracked, r.relocate];
    return r.version === 1 && lists.every((l) => Array.isArray(l)) ? r : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The receiving side: takes what an earlier stage of the run handed to this job, when it was set
 * up for `key`. Anything else (none, another key, the worktree already holds a path): a reason,
 * the hand-off removed, the worktree as it was.
 */
export async function takeHandOff(job: HandOffJob, key: string): Promise<TakeResult> {
  const started = performance.now();
  const dir = handOffDir(job.workdir, job.repo, basename(job.jobDir));
  const claimed = aside(dir, 'taking');
  try {
    await rename(dir, claimed);
  } catch {
    return { taken: false, reason: 'nothing handed on' };
  }
  try {
    const record = await readRecord(claimed);
    if (!record) return { taken: false, reason: 'the hand-off is unreadable' };
    if (record.key !== key) return { taken: false, reason: 'handed on for another key' };
    if (!(await absent(job.worktree, record.products)))
      return { taken: false, reason: 'the worktree already holds what setup makes' };
    const relocated = await placeAll(record, claimed, job);
    const ms = Math.round(performance.now() - started);
    const paths = record.products.length + record.tracked.length;
    return { taken: true, key, paths, relocated, ms };
  } finally {
    await rm(claimed, { recursive: true, force: true });
  }
}

async function placeAll(record: HandOffRecord, claimed: string, job: HandOffJob): Promise<number> {
  const placed: string[] = [];
  try {
    for (const p of [...record.products, ...record.tracked]) {
      await rm(join(job.worktree, p), { recursive: true, force: true });
      await move(join(claimed, 'paths'), job.worktree, p);
      placed.push(p);
    }
    let relocated = 0;
    for (const p of record.relocate)
      if (await relocateOne(join(job.worktree, p), record.jobDir, job.jobDir)) relocated++;
    return relocated;
  } catch (err) {
    for (const p of placed) await rm(join(job.worktree, p), { recursive: true, force: true });
    throw err;
  }
}

/**
 * One file or link that embeds the giving job's path, rewritten for this job's: a link gets a
 * new target; a regular file (opened without following a link, at most 1 MB) a fresh inode.
 * Anything else a command left there is left as it is, never read.
 */
async function relocateOne(path: string, from: string, to: string): Promise<boolean> {
  const s = await lstat(path).catch(() => undefined);
  if (s?.isSymbolicLink()) {
    const target = await readlink(path);
    await unlink(path);
    await symlink(relocateText(target, from, to), path);
    return true;
  }
  if (!s?.isFile() || s.size > RELOCATE_MAX_BYTES) return false;
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  let text: string;
  try {
    text = await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
  await unlink(path);
  await writeFile(path, relocateText(text, from, to), { mode: 0o600 });
  await chmod(path, (s.mode & 0o777) | 0o200);
  return true;
}
