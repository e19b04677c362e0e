/**
 * A path as a tool printed it, made repository-relative (pure). Output is untrusted: a path
 * outside the worktree, climbing out with `..`, in `node_modules` or `.git`, a URL, a `node:`
 * module or an absolute path without a worktree to strip is not a file of the repository.
 */

const MAX_PATH_CHARS = 1024;
// eslint-disable-next-line no-control-regex -- a path with a control character is refused
const PATH_CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The absolute path (or paths, e.g. the sandbox's view and the host's) of the worktree a command
 * ran in: absolute paths under it become relative, every other absolute path is dropped.
 */
export type Worktree = string | readonly string[] | undefined;

/** `.`/`..` resolved; undefined when `..` climbs above the start. */
function normalizeSegments(path: string): string[] | undefined {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else {
      out.push(part);
    }
  }
  return out;
}

function roots(worktree: Worktree): string[][] {
  const list = worktree === undefined ? [] : typeof worktree === 'string' ? [worktree] : worktree;
  return list
    .filter((w) => w.startsWith('/'))
    .map((w) => normalizeSegments(w) ?? [])
    .filter((w) => w.length > 0);
}

/** The path without quotes, `file://` and backslashes; undefined when it cannot be a path. */
function unwrap(raw: string): string | undefined {
  let path = raw.trim().replace(/^(['"])(.*)\1$/, '$2');
  if (/^file:\/\//i.test(path)) {
    try {
      path = decodeURIComponent(path.replace(/^file:\/\/(?:localhost)?/i, ''));
    } catch {
      return undefined;
    }
  }
  path = path.replace(/\\/g, '/');
  if (!path || path.length > MAX_PATH_CHARS || PATH_CONTROL.test(path)) return undefined;
  return path;
}

/** The path's segments below the worktree; undefined when it is not under it. */
function segmentsOf(path: string, worktree: Worktree): string[] | undefined {
  if (!path.startsWith('/')) return path.startsWith('~') ? undefined : normalizeSegments(path);
  const absolute = normalizeSegments(path);
  if (!absolute) return undefined;
  const root = roots(worktree).find(
    (r) => absolute.length > r.length && r.every((part, i) => absolute[i] === part),
  );
  return root ? absolute.slice(root.length) : undefined;
}

/** Relative paths are read as relative to the worktree. */
export function repoRelativePath(raw: string, worktree?: Worktree): string | undefined {
  const path = unwrap(raw);
  const segments = path === undefined ? undefined : segmentsOf(path, worktree);
  if (!segments || segments.length === 0) return undefined;
  if (segments.includes('node_modules') || segments[0] === '.git') return undefined;
  const out = segments.join('/');
  // Windows drives, URLs, `node:internal/…`, `<anonymous>`: nothing in the repository.
  if (out.includes(':') || /[<>]/.test(out)) return undefined;
  return out;
}
