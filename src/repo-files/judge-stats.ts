/**
 * The reader's decisions about what it found on disk, apart from the system calls that found it
 * (the synchronous and asynchronous readers make the same calls in the same order).
 */
import type { Stats } from 'node:fs';
import { refusal, type RepoFileRefusal } from './refusal.js';

/** What an `lstat` of the file itself allows: only a regular file, alone, within the cap. */
export function judgeEntry(
  path: string,
  stat: Stats,
  maxBytes: number,
): RepoFileRefusal | undefined {
  if (stat.isSymbolicLink()) return refusal(path, 'symlink');
  if (stat.isDirectory()) return refusal(path, 'directory');
  if (!stat.isFile()) return refusal(path, 'special');
  if (stat.nlink > 1) return refusal(path, 'hard-link');
  if (stat.size > maxBytes) return refusal(path, 'too-large', { bytes: stat.size });
  return undefined;
}

/** What an `lstat` of a directory on the way allows: a real directory, never a link. */
export function judgeParent(stat: Stats): 'symlink-on-path' | 'missing' | undefined {
  if (stat.isSymbolicLink()) return 'symlink-on-path';
  if (!stat.isDirectory()) return 'missing';
  return undefined;
}

/**
 * After the open: the descriptor is the file that was checked (same device and inode, still a
 * regular file within the cap) and its real path is exactly the one asked for inside the real
 * worktree — whatever raced in between.
 */
export function judgeOpened(
  path: string,
  checked: Stats,
  opened: Stats,
  realPath: string | undefined,
  expected: string,
  maxBytes: number,
): RepoFileRefusal | undefined {
  if (opened.dev !== checked.dev || opened.ino !== checked.ino || !opened.isFile())
    return refusal(path, 'changed');
  if (realPath !== undefined && realPath !== expected) return refusal(path, 'outside');
  if (opened.size > maxBytes) return refusal(path, 'too-large', { bytes: opened.size });
  return undefined;
}

/** An `lstat`/`open` error as a refusal: gone is `missing`, anything else `unreadable`. */
export function judgeError(path: string, err: { code?: string | undefined }): RepoFileRefusal {
  const code = err.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return refusal(path, 'missing');
  if (code === 'ELOOP') return refusal(path, 'symlink');
  return refusal(path, 'unreadable');
}
