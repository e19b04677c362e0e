/**
 * Files as a commit holds them (`git ls-tree` + `git cat-file`), for what must be read at a pinned
 * commit rather than from the disk: the repository's agent guidance, its `.github/autofix.yml`
 * for `autofix run` and the modes. Git objects cannot lead outside the repository, but a link is
 * still a link: its text is reported (`symlink`, with `target`), never taken as the file's
 * content; a submodule is `special`; the same size cap applies.
 */
import { runGit } from '../git/run-git.js';
import {
  decodeText,
  DEFAULT_MAX_BYTES,
  type ReadOptions,
  type RepoTextRead,
} from './open-repo-files.js';
import { refusal } from './refusal.js';
import { checkRepoPath } from './repo-path.js';

export interface CommitSource {
  /** Where git runs: a mirror or a checkout. */
  cwd: string;
  /**
   * A job worktree's git directory: git is told it, never follows the worktree's `.git` link
   * (which repository code could have rewritten).
   */
  gitDir?: string;
  /** Any commit-ish: a sha, `HEAD`. */
  commit: string;
}

interface TreeEntry {
  mode: string;
  type: string;
  sha: string;
  size: number;
}

/** `ls-tree -l -z` lines: `<mode> <type> <sha> <size>\t<path>`. */
function parseTree(stdout: string): Map<string, TreeEntry> {
  const entries = new Map<string, TreeEntry>();
  for (const line of stdout.split('\0')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const [mode = '', type = '', sha = '', size = ''] = line.slice(0, tab).trim().split(/\s+/);
    entries.set(line.slice(tab + 1), { mode, type, sha, size: Number(size) || 0 });
  }
  return entries;
}

const gitOf = (source: CommitSource) => ({
  cwd: source.cwd,
  ...(source.gitDir ? { env: { GIT_DIR: source.gitDir, GIT_WORK_TREE: source.cwd } } : {}),
});

async function blobText(source: CommitSource, sha: string): Promise<string> {
  return (await runGit(['cat-file', 'blob', sha], gitOf(source))).stdout;
}

async function readEntry(
  source: CommitSource,
  path: string,
  entry: TreeEntry | undefined,
  maxBytes: number,
): Promise<RepoTextRead> {
  if (!entry) return refusal(path, 'missing');
  if (entry.mode === '120000')
    return refusal(path, 'symlink', { target: await blobText(source, entry.sha) });
  if (entry.type === 'tree') return refusal(path, 'directory');
  if (entry.type !== 'blob') return refusal(path, 'special');
  if (entry.size > maxBytes) return refusal(path, 'too-large', { bytes: entry.size });
  const text = await blobText(source, entry.sha);
  // The bytes came back decoded: a count that differs means they were not UTF-8.
  const exact =
    Buffer.byteLength(text, 'utf8') === entry.size ? decodeText(Buffer.from(text)) : undefined;
  return exact === undefined ? refusal(path, 'binary') : { ok: true, path, text: exact };
}

/** Each path's text at the commit, or why not; one `ls-tree` for all of them. */
export async function readCommitFiles(
  source: CommitSource,
  paths: readonly string[],
  options: ReadOptions = {},
): Promise<Map<string, RepoTextRead>> {
  const out = new Map<string, RepoTextRead>();
  const asked: string[] = [];
  for (const path of paths) {
    const at = checkRepoPath(path);
    if (at.ok) asked.push(at.path);
    else out.set(path, at);
  }
  if (asked.length === 0) return out;
  const listed = await runGit(
    ['--literal-pathspecs', 'ls-tree', '-l', '-z', source.commit, '--', ...asked],
    { ...gitOf(source), okCodes: [128] },
  );
  const tree = listed.code === 0 ? parseTree(listed.stdout) : new Map<string, TreeEntry>();
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  for (const path of asked) out.set(path, await readEntry(source, path, tree.get(path), maxBytes));
  return out;
}

/** One file's text at the commit, or undefined when it is not a readable regular file there. */
export async function readCommitText(
  source: CommitSource,
  path: string,
  options: ReadOptions = {},
): Promise<string | undefined> {
  const got = (await readCommitFiles(source, [path], options)).get(path);
  return got?.ok ? got.text : undefined;
}
