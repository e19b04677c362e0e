/**
 * Why a repository path was not read. The reader never follows a link, never opens anything but
 * a regular file inside the worktree, and never reads past a size cap; each refusal says which
 * rule held, in words a maintainer (and the model) can act on.
 */
export type RefusalReason =
  /** Absolute, empty, with a NUL byte or an empty segment. */
  | 'invalid-path'
  /** `..` leads out, or the file's real path is not the path asked for inside the worktree. */
  | 'outside'
  /** The file itself is a symbolic link (its text is `target`; it is never followed). */
  | 'symlink'
  /** A directory on the way to it is a symbolic link. */
  | 'symlink-on-path'
  /** A FIFO, socket or device: never opened. */
  | 'special'
  | 'directory'
  | 'too-large'
  /** A NUL byte, or bytes that are not UTF-8, where text was asked for. */
  | 'binary'
  /** A regular file with other names: its bytes may belong to a file outside the worktree. */
  | 'hard-link'
  /** Git's own data (`.git`), not the repository's content. */
  | 'git-internal'
  /** It changed between the check and the read (raced). */
  | 'changed'
  | 'missing'
  | 'unreadable';

export interface RepoFileRefusal {
  ok: false;
  path: string;
  reason: RefusalReason;
  /** One sentence for logs, prompts and error messages. */
  message: string;
  /** The link's own text, for `symlink` and `symlink-on-path`. */
  target?: string;
  /** The file's size, for `too-large`. */
  bytes?: number;
}

/** How a link's text is shown: it is repository content, so short and without control characters. */
export function shownTarget(target: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = target.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}

const WHY: Record<RefusalReason, (r: Omit<RepoFileRefusal, 'message' | 'ok'>) => string> = {
  'invalid-path': () => 'not a relative path inside the repository',
  outside: () => 'outside the repository',
  symlink: (r) =>
    `a symbolic link${r.target === undefined ? '' : ` to \`${shownTarget(r.target)}\``}; links are not followed`,
  'symlink-on-path': (r) =>
    `reached through a symbolic link${r.target === undefined ? '' : ` (to \`${shownTarget(r.target)}\`)`}; links are not followed`,
  special: () => 'not a regular file (a FIFO, socket or device); it is never opened',
  directory: () => 'a directory',
  'too-large': (r) => `too large to read (${r.bytes ?? '?'} bytes)`,
  binary: () => 'a binary or non-UTF-8 file',
  'hard-link': () => 'a hard link (the same file has another name); it is not read',
  'git-internal': () => "git's own data, not the repository's content",
  changed: () => 'changed while it was being read',
  missing: () => 'not there',
  unreadable: () => 'unreadable',
};

export function refusal(
  path: string,
  reason: RefusalReason,
  extra: { target?: string; bytes?: number } = {},
): RepoFileRefusal {
  const base = { path, reason, ...extra };
  return { ok: false, ...base, message: `\`${path}\` is ${WHY[reason](base)}` };
}
