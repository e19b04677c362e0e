import { refusal, type RepoFileRefusal } from './refusal.js';

export interface RepoPath {
  ok: true;
  /** The path as given, normalised (no `.` segments, no trailing slash). */
  path: string;
  segments: string[];
}

/**
 * A path the reader may look at: relative, POSIX, inside the worktree by its very spelling (`..`
 * is refused outright rather than resolved: nothing in a repository needs it), and not into git's
 * own data. Pure: the disk is checked by the reader.
 */
export function checkRepoPath(path: string): RepoPath | RepoFileRefusal {
  if (path === '' || path.includes('\0') || path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path))
    return refusal(path, 'invalid-path');
  const segments = path.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.length === 0) return refusal(path, 'invalid-path');
  if (segments.includes('..')) return refusal(path, 'outside');
  if (segments.some((s) => s === '.git')) return refusal(path, 'git-internal');
  return { ok: true, path: segments.join('/'), segments };
}
