/**
 * Restores an entry into a job's worktree: every cached file checked against the manifest first
 * (a changed one means the entry was written in place: it is dropped, never restored), then the
 * directories made fresh (root's, handed to the sandbox with the worktree, so commands can still
 * delete and replace files), the files hard-linked (link mode) or copied (copy mode, reflinked
 * where the filesystem can), and the files that embed the old job's path written as fresh copies
 * with this job's path.
 */
import { constants } from 'node:fs';
import {
  chmod,
  copyFile,
  link,
  lstat,
  mkdir,
  readFile,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import { SETUP_CACHE_VERSION } from './cache-key.js';
import { entryDir, entryFiles, type FileRecord, type Manifest } from './layout.js';
import { relocateText } from './relocate.js';
import { eachLimit } from './walk.js';

const PARALLEL = 32;

export type RestoreResult =
  | { restored: true; files: number; bytes: number; relocated: number }
  | { restored: false; reason: string; poisoned?: boolean };

export async function readManifest(root: string, key: string): Promise<Manifest | undefined> {
  try {
    const text = await readFile(join(entryDir(root, key), 'manifest.json'), 'utf8');
    const m = JSON.parse(text) as Manifest;
    return m.version === SETUP_CACHE_VERSION && m.key === key ? m : undefined;
  } catch {
    return undefined;
  }
}

/** The first cached file that is not as captured, or undefined. */
export async function changedFile(root: string, manifest: Manifest): Promise<string | undefined> {
  const files = entryFiles(root, manifest.key);
  let changed: string | undefined;
  await eachLimit(manifest.files, PARALLEL, async (f: FileRecord) => {
    if (changed) return;
    const s = await lstat(join(files, f.p)).catch(() => undefined);
    const same =
      s !== undefined &&
      s.isFile() &&
      s.size === f.size &&
      s.mtimeMs === f.mtimeMs &&
      s.mode === f.mode &&
      s.uid === f.uid &&
      s.ino === f.ino &&
      // link() changes a linked inode's ctime: only a copy-mode entry can be held to it.
      (manifest.mode === 'link' || s.ctimeMs === f.ctimeMs);
    if (!same) changed = f.p;
  });
  return changed;
}

async function absent(worktree: string, paths: readonly string[]): Promise<boolean> {
  for (const p of paths) {
    if (await lstat(join(worktree, p)).catch(() => undefined)) return false;
  }
  return true;
}

async function placeFile(src: string, dst: string, f: FileRecord, mode: Manifest['mode']) {
  if (mode === 'link') {
    try {
      await link(src, dst);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // Too many links to one inode, or another filesystem: this one file is copied.
      if (code !== 'EMLINK' && code !== 'EXDEV') throw err;
    }
  }
  await copyFile(src, dst, constants.COPYFILE_FICLONE);
  await chmod(dst, (f.mode & 0o777) | 0o200);
}

async function place(root: string, m: Manifest, worktree: string, jobDir: string): Promise<void> {
  const files = entryFiles(root, m.key);
  const relocate = new Set(m.relocate);
  // Level by level (parents first), each level in parallel.
  const depth = (p: string): number => p.split('/').length;
  const levels = new Map<number, Manifest['dirs']>();
  for (const d of m.dirs) levels.set(depth(d.p), [...(levels.get(depth(d.p)) ?? []), d]);
  for (const level of [...levels.keys()].sort((a, b) => a - b)) {
    await eachLimit(levels.get(level)!, PARALLEL, async (d) => {
      await mkdir(join(worktree, d.p), { recursive: true, mode: (d.mode & 0o777) | 0o700 });
    });
  }
  for (const p of m.products) await mkdir(join(worktree, p, '..'), { recursive: true });
  await eachLimit(m.files, PARALLEL, async (f) => {
    const src = join(files, f.p);
    const dst = join(worktree, f.p);
    if (!relocate.has(f.p)) return placeFile(src, dst, f, m.mode);
    // A fresh inode with this job's path: never written through the cached one.
    const text = relocateText(await readFile(src, 'utf8'), m.jobDir, jobDir);
    await writeFile(dst, text, { mode: (f.mode & 0o777) | 0o200 });
    await chmod(dst, (f.mode & 0o777) | 0o200);
  });
  for (const l of m.links) {
    const target = relocate.has(l.p) ? relocateText(l.target, m.jobDir, jobDir) : l.target;
    await symlink(target, join(worktree, l.p));
  }
}

/** Restores entry `key` into `worktree` (of the job in `jobDir`). */
export async function restoreEntry(
  root: string,
  key: string,
  worktree: string,
  jobDir: string,
): Promise<RestoreResult> {
  const manifest = await readManifest(root, key);
  if (!manifest) return { restored: false, reason: 'no entry' };
  const changed = await changedFile(root, manifest);
  if (changed)
    return { restored: false, reason: `cached file changed: ${changed}`, poisoned: true };
  if (!(await absent(worktree, manifest.products))) {
    return { restored: false, reason: 'the worktree already holds what setup makes' };
  }
  try {
    await place(root, manifest, worktree, jobDir);
  } catch (err) {
    for (const p of manifest.products)
      await rm(join(worktree, p), { recursive: true, force: true });
    return { restored: false, reason: `restore failed: ${(err as Error).message}` };
  }
  return {
    restored: true,
    files: manifest.files.length,
    bytes: manifest.files.reduce((sum, f) => sum + f.size, 0),
    relocated: manifest.relocate.length,
  };
}
