/**
 * Where a repository's setup cache lives and what an entry records. One folder per repository
 * (`<workdir>/setup-cache/<owner>/<name>`), never shared across repositories, hidden from the
 * sandbox with the rest of the workdir:
 *
 * - `entries/<key>/files/…` the captured paths, `manifest.json` (every file's identity, which
 *   files embed the old job's path), `meta.json` (size, counts), `used` (its mtime: last use);
 * - `kinds/<dependency key>`: present when that setup also builds from the sources (the entry is
 *   then keyed with the tree too);
 * - `building/`, `trash/`: entries being made (renamed into place) or deleted;
 * - `leases/<key>/<pid>-<n>`: a job restoring from the entry; eviction leaves it alone.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

export interface FileRecord {
  /** Relative to the worktree. */
  p: string;
  size: number;
  /** `<inode> <size> <mtime> <mode> <uid>` (identities.ts). */
  id: string;
  /** Checked only where nothing links the cached file (copy mode: link() changes the ctime). */
  ctime: string;
  /** The file's mode (permission bits), for a copy. */
  mode: number;
}

export type LinkMode = 'link' | 'copy';

export interface Manifest {
  version: number;
  key: string;
  /** The top-level paths setup produced (what a failed restore removes again). */
  products: string[];
  dirs: { p: string; mode: number }[];
  files: FileRecord[];
  links: { p: string; target: string }[];
  /** Files (and link targets) holding `jobDir`, rewritten on restore. */
  relocate: string[];
  jobDir: string;
  mode: LinkMode;
  sourceDependent: boolean;
  /** Tracked files setup rewrote: plain copies under `tracked/`, written back on restore. */
  tracked: { p: string; mode: number }[];
}

export interface EntryMeta {
  key: string;
  files: number;
  bytes: number;
  created_at: string;
}

export function cacheRoot(workdir: string, repo: string): string {
  return join(workdir, 'setup-cache', repo);
}

export const entryDir = (root: string, key: string): string => join(root, 'entries', key);
export const entryFiles = (root: string, key: string): string => join(entryDir(root, key), 'files');
export const entryTracked = (root: string, key: string): string =>
  join(entryDir(root, key), 'tracked');
export const kindFile = (root: string, depKey: string): string => join(root, 'kinds', depKey);
export const leaseDir = (root: string, key: string): string => join(root, 'leases', key);

/** A fresh name for something made aside. */
export function asideName(root: string, folder: 'building' | 'trash', key: string): string {
  return join(root, folder, `${key}-${process.pid}-${randomBytes(4).toString('hex')}`);
}
