/**
 * The one reader of a repository checkout. Everything the worker reads from a worktree — the
 * map and ranking, style and guidance files, the reproduce stage's examples, the code agent's
 * views, the modes' inputs — goes through it: only regular files with one name, inside the
 * worktree by their real path, never through a link, never a FIFO or device, never past a size
 * cap; anything else is a refusal that says which (`refusal.ts`). `test/unit/repo/
 * repo-reads.test.ts` fails when code elsewhere opens files itself.
 */
import { existsSync, realpathSync } from 'node:fs';
import { runAsync, runSync } from './file-ops.js';
import {
  entrySteps,
  linkSteps,
  listSteps,
  readSteps,
  type EntryKind,
  type ReaderRoot,
  type RepoDirEntry,
  type RepoFileRead,
} from './read-steps.js';
import { refusal, type RepoFileRefusal } from './refusal.js';

/** The cap when a caller names none: larger than any source file worth editing. */
export const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;

export interface ReadOptions {
  /** Refuse (`too-large`) a file over this many bytes. */
  maxBytes?: number;
}

export type RepoTextRead = { ok: true; path: string; text: string } | RepoFileRefusal;

export interface RepoFiles {
  /** The worktree's real path. */
  readonly root: string;
  read(path: string, options?: ReadOptions): Promise<RepoFileRead>;
  /** `read` with blocking calls, for a thread of its own. */
  readSync(path: string, options?: ReadOptions): RepoFileRead;
  /** UTF-8 text; a file with a NUL byte or bytes that are not UTF-8 is refused as `binary`. */
  readText(path: string, options?: ReadOptions): Promise<RepoTextRead>;
  /** A directory's entries with their kinds (`''` is the worktree); links are not followed. */
  list(dir: string): Promise<RepoDirEntry[] | RepoFileRefusal>;
  /** The link's own text when `path` is a symbolic link inside the worktree. */
  linkTarget(path: string): Promise<string | undefined>;
  /**
   * What stands at the path itself (a dangling link is a `symlink`), or undefined when nothing
   * does or it cannot be reached without a link: whether a new file may be written there.
   */
  entryKind(path: string): EntryKind | undefined;
}

let procFd: boolean | undefined;

/** Whether a UTF-8 decoding of `bytes` gives them back exactly, with no NUL byte. */
export function decodeText(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : undefined;
}

export function openRepoFiles(worktree: string): RepoFiles {
  const root: ReaderRoot = {
    real: realpathSync(worktree),
    procFd: (procFd ??= existsSync('/proc/self/fd')),
    verified: new Set(),
  };
  const cap = (options?: ReadOptions): number => options?.maxBytes ?? DEFAULT_MAX_BYTES;
  const read = (path: string, options?: ReadOptions) =>
    runAsync(readSteps(root, path, cap(options)));
  return {
    root: root.real,
    read,
    readSync: (path, options) => runSync(readSteps(root, path, cap(options))),
    readText: async (path, options) => {
      const got = await read(path, options);
      if (!got.ok) return got;
      const text = decodeText(got.bytes);
      return text === undefined ? refusal(got.path, 'binary') : { ok: true, path: got.path, text };
    },
    list: (dir) => runAsync(listSteps(root, dir)),
    linkTarget: (path) => runAsync(linkSteps(root, path)),
    entryKind: (path) => runSync(entrySteps(root, path)),
  };
}
