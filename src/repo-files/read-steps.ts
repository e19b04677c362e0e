/**
 * One read of a repository path, as steps (`file-ops.ts`): the path by its spelling, every
 * directory on the way by `lstat` (no link), the file by `lstat` (a regular file with one name,
 * within the cap), then the open (no-follow, non-blocking), and after it the descriptor's own
 * identity and real path — so that nothing swapped in between is read either.
 */
import type { Dirent, Stats } from 'node:fs';
import { isError, type OpResult, type Steps } from './file-ops.js';
import { judgeEntry, judgeError, judgeOpened, judgeParent } from './judge-stats.js';
import { refusal, type RepoFileRefusal } from './refusal.js';
import { checkRepoPath, type RepoPath } from './repo-path.js';

/** A worktree as the reader knows it: its real path and the directories already checked. */
export interface ReaderRoot {
  real: string;
  /** `/proc/self/fd/<n>` names an open file's real path (Linux); else `realpath` after the open. */
  procFd: boolean;
  verified: Set<string>;
}

export interface RepoFileBytes {
  ok: true;
  path: string;
  bytes: Buffer;
}

export type RepoFileRead = RepoFileBytes | RepoFileRefusal;

export type EntryKind = 'file' | 'directory' | 'symlink' | 'special';

export interface RepoDirEntry {
  name: string;
  kind: EntryKind;
}

const textOf = (value: OpResult): string | undefined =>
  typeof value === 'string' ? value : undefined;

function* linkRefusal(
  path: string,
  reason: 'symlink' | 'symlink-on-path',
  abs: string,
): Steps<RepoFileRefusal> {
  const target = textOf(yield { op: 'readlink', path: abs });
  return refusal(path, reason, target === undefined ? {} : { target });
}

/** Every directory between the worktree and the path: real directories, none a link. */
function* checkParents(
  root: ReaderRoot,
  at: RepoPath,
  upTo: number,
): Steps<RepoFileRefusal | undefined> {
  for (let i = 1; i <= upTo; i++) {
    const rel = at.segments.slice(0, i).join('/');
    if (root.verified.has(rel)) continue;
    const abs = `${root.real}/${rel}`;
    const stat = yield { op: 'lstat', path: abs };
    if (isError(stat)) return judgeError(at.path, stat);
    const why = judgeParent(stat as Stats);
    if (why === 'symlink-on-path') return yield* linkRefusal(at.path, why, abs);
    if (why) return refusal(at.path, why);
    root.verified.add(rel);
  }
  return undefined;
}

/**
 * Reads the `size` bytes `fstat` gave an open regular file (a file that grows meanwhile is read as
 * it was; one that shrinks, to its end), never more than `maxBytes`.
 */
function* readSized(path: string, fd: number, size: number, maxBytes: number): Steps<RepoFileRead> {
  const buffer = Buffer.allocUnsafe(Math.min(size, maxBytes));
  let filled = 0;
  while (filled < buffer.length) {
    const got = yield { op: 'read', fd, buffer, offset: filled };
    if (isError(got)) return judgeError(path, got);
    if (got === 0) break;
    filled += got as number;
  }
  return { ok: true, path, bytes: filled === buffer.length ? buffer : buffer.subarray(0, filled) };
}

export function* readSteps(root: ReaderRoot, path: string, maxBytes: number): Steps<RepoFileRead> {
  const at = checkRepoPath(path);
  if (!at.ok) return at;
  const parents = yield* checkParents(root, at, at.segments.length - 1);
  if (parents) return parents;
  const abs = `${root.real}/${at.path}`;
  const stat = yield { op: 'lstat', path: abs };
  if (isError(stat)) return judgeError(at.path, stat);
  const entry = judgeEntry(at.path, stat as Stats, maxBytes);
  if (entry?.reason === 'symlink') return yield* linkRefusal(at.path, 'symlink', abs);
  if (entry) return entry;
  const fd = yield { op: 'open', path: abs };
  if (isError(fd)) return judgeError(at.path, fd);
  try {
    const opened = yield { op: 'fstat', fd: fd as number };
    if (isError(opened)) return judgeError(at.path, opened);
    const real = yield root.procFd
      ? { op: 'readlink', path: `/proc/self/fd/${fd as number}` }
      : { op: 'realpath', path: abs };
    const wrong = judgeOpened(
      at.path,
      stat as Stats,
      opened as Stats,
      textOf(real) ?? '',
      abs,
      maxBytes,
    );
    if (wrong) return wrong;
    return yield* readSized(at.path, fd as number, (opened as Stats).size, maxBytes);
  } finally {
    yield { op: 'close', fd: fd as number };
  }
}

/** What stands at the path itself (a link is a link), or undefined: nothing, or not reachable. */
export function* entrySteps(root: ReaderRoot, path: string): Steps<EntryKind | undefined> {
  const at = checkRepoPath(path);
  if (!at.ok) return undefined;
  if (yield* checkParents(root, at, at.segments.length - 1)) return undefined;
  const stat = yield { op: 'lstat', path: `${root.real}/${at.path}` };
  if (isError(stat)) return undefined;
  const s = stat as Stats;
  return s.isSymbolicLink()
    ? 'symlink'
    : s.isDirectory()
      ? 'directory'
      : s.isFile()
        ? 'file'
        : 'special';
}

/** The text of a link inside the worktree (never followed), or undefined when it is not one. */
export function* linkSteps(root: ReaderRoot, path: string): Steps<string | undefined> {
  const at = checkRepoPath(path);
  if (!at.ok) return undefined;
  if (yield* checkParents(root, at, at.segments.length - 1)) return undefined;
  const abs = `${root.real}/${at.path}`;
  const stat = yield { op: 'lstat', path: abs };
  if (isError(stat) || !(stat as Stats).isSymbolicLink()) return undefined;
  return textOf(yield { op: 'readlink', path: abs });
}

const kindOf = (e: Dirent): EntryKind =>
  e.isSymbolicLink() ? 'symlink' : e.isDirectory() ? 'directory' : e.isFile() ? 'file' : 'special';

/** A directory's entries (`''` is the worktree), each with its kind; links are listed, not followed. */
export function* listSteps(root: ReaderRoot, dir: string): Steps<RepoDirEntry[] | RepoFileRefusal> {
  let abs = root.real;
  if (dir !== '' && dir !== '.') {
    const at = checkRepoPath(dir);
    if (!at.ok) return at;
    const parents = yield* checkParents(root, at, at.segments.length);
    if (parents) return parents;
    abs = `${root.real}/${at.path}`;
  }
  const entries = yield { op: 'readdir', path: abs };
  if (isError(entries)) return judgeError(dir, entries);
  return (entries as Dirent[]).map((e) => ({ name: e.name, kind: kindOf(e) }));
}
