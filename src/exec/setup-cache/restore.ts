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
import { entryDir, entryFiles, entryTracked, type FileRecord, type Manifest } from './layout.js';
import { relocateText } from './relocate.js';
import { eachLimit } from './walk.js';
import { copyTree } from './tree-copy.js';
import { fileIdentities } from './identities.js';

const PARALLEL = 32;

export type RestoreResult =
  | {
      restored: true;
      files: number;
      bytes: number;
      relocated: number;
      /** Why the fast path (whole trees linked) gave way to file by file, if it did. */
      slowPath?: string;
    }
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

/** The first cached file that is not as captured (or one that was added), or undefined. */
export async function changedFile(root: string, manifest: Manifest): Promise<string | undefined> {
  const now = await fileIdentities(entryFiles(root, manifest.key)).catch(() => undefined);
  if (!now) return '(the entry cannot be read)';
  for (const f of manifest.files) {
    const found = now.get(f.p);
    // link() changes a linked inode's ctime: only a copy-mode entry can be held to it.
    const same =
      found !== undefined &&
      found.id === f.id &&
      (manifest.mode === 'link' || found.ctime === f.ctime);
    if (!same) return f.p;
  }
  if (now.size !== manifest.files.length) return '(a file was added)';
  return undefined;
}

/** Whether none of `paths` exists in `worktree` (links not followed). */
export async function absent(worktree: string, paths: readonly string[]): Promise<boolean> {
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

/**
 * Link mode's fast path: one `cp -al` per product (directories made fresh, every file a hard
 * link), then the relocated files replaced by fresh copies. A file linked too often (EMLINK) or
 * anything else that fails: the caller removes what was made and takes the file-by-file path.
 */
async function linkProducts(root: string, m: Manifest, worktree: string, jobDir: string) {
  const files = entryFiles(root, m.key);
  for (const p of m.products) {
    const src = join(files, p);
    if (!(await lstat(src).catch(() => undefined))) continue; // a link: made below
    await copyTree(src, join(worktree, p), 'link');
  }
  const byPath = new Map(m.files.map((f) => [f.p, f]));
  for (const p of m.relocate) {
    const f = byPath.get(p);
    if (!f) continue;
    await rm(join(worktree, p), { force: true });
    await writeRelocated(join(files, p), join(worktree, p), f, m.jobDir, jobDir);
  }
  await makeLinks(m, worktree, jobDir);
}

/** A fresh inode with this job's path: never written through the cached one. */
async function writeRelocated(src: string, dst: string, f: FileRecord, from: string, to: string) {
  const text = relocateText(await readFile(src, 'utf8'), from, to);
  await writeFile(dst, text, { mode: (f.mode & 0o777) | 0o200 });
  await chmod(dst, (f.mode & 0o777) | 0o200);
}

async function makeLinks(m: Manifest, worktree: string, jobDir: string): Promise<void> {
  const relocate = new Set(m.relocate);
  for (const l of m.links) {
    const target = relocate.has(l.p) ? relocateText(l.target, m.jobDir, jobDir) : l.target;
    await symlink(target, join(worktree, l.p));
  }
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
    await writeRelocated(src, dst, f, m.jobDir, jobDir);
  });
  await makeLinks(m, worktree, jobDir);
}

/** The tracked files setup rewrote, as it left them: fresh content in the job's own files. */
async function writeTracked(root: string, m: Manifest, worktree: string): Promise<void> {
  for (const t of m.tracked) {
    const dst = join(worktree, t.p);
    await rm(dst, { force: true });
    await copyFile(join(entryTracked(root, m.key), t.p), dst);
    await chmod(dst, t.mode | 0o200);
  }
}

async function removeProducts(m: Manifest, worktree: string): Promise<void> {
  for (const p of m.products) await rm(join(worktree, p), { recursive: true, force: true });
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
  let slowPath: string | undefined;
  try {
    if (manifest.mode !== 'link') await place(root, manifest, worktree, jobDir);
    else {
      await linkProducts(root, manifest, worktree, jobDir).catch(async (err: unknown) => {
        slowPath = err instanceof Error ? err.message : String(err);
        await removeProducts(manifest, worktree);
        await place(root, manifest, worktree, jobDir);
      });
    }
    await writeTracked(root, manifest, worktree);
  } catch (err) {
    await removeProducts(manifest, worktree);
    return { restored: false, reason: `restore failed: ${(err as Error).message}` };
  }
  return {
    restored: true,
    files: manifest.files.length,
    bytes: manifest.files.reduce((sum, f) => sum + f.size, 0),
    relocated: manifest.relocate.length,
    ...(slowPath ? { slowPath } : {}),
  };
}
