/**
 * Puts what `setup` produced into the cache as a new entry: built aside, then renamed into place
 * (two jobs filling the same key: the first rename wins, the loser's copy is discarded).
 *
 * Link mode (root with the sandbox): each file is hard-linked, then owned by `CACHE_OWNER` and
 * made read-only — the worktree's own copy is the same inode, so from now on no sandboxed command
 * (an unprivileged uid without capabilities) can write it in place, and the hand-over's
 * `chown --from=0` never gives it away. Copy mode: the entry holds copies nothing else shares.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  copyFile,
  lstat,
  mkdir,
  readFile,
  readlink,
  rename,
  rm,
  writeFile,
} from 'node:fs/promises';
import { constants } from 'node:fs';
import { join } from 'node:path';
import { embeddedPath } from './relocate.js';
import {
  asideName,
  entryDir,
  type EntryMeta,
  type FileRecord,
  type LinkMode,
  type Manifest,
} from './layout.js';
import { eachLimit, walkProducts, type Walked } from './walk.js';
import { copyTree } from './tree-copy.js';
import { fileIdentities } from './identities.js';

/** The permission bits of an identity's octal mode field. */
const modeOf = (id: string): number => parseInt(id.split(' ')[3] ?? '644', 8);
import { SETUP_CACHE_VERSION } from './cache-key.js';

/**
 * Who owns cached inodes: neither root (the hand-over changes what root owns) nor the sandbox
 * user; nothing runs as it. Read-only for everyone, so only root (outside the sandbox) could
 * write them, and the manifest check catches that.
 */
export const CACHE_OWNER = { uid: 65533, gid: 65533 };

/** Files larger than this are not searched for the job's path (venv scripts, .pth are tiny). */
const SCAN_BYTES = 1 << 20;
const PARALLEL = 32;
/** A rewritten lockfile is small; anything larger is not what the copy is for. */
const TRACKED_MAX_BYTES = 64 * 1024 * 1024;

export interface CaptureInput {
  root: string;
  key: string;
  worktree: string;
  /** The job's folder (worktree and HOME): the path a relocated file embeds. */
  jobDir: string;
  products: readonly string[];
  /** Tracked files setup rewrote: copied, never linked (the job may edit them). */
  trackedEdits: readonly string[];
  sourceDependent: boolean;
  mode: LinkMode;
}

export type CaptureResult =
  { stored: true; meta: EntryMeta; raced: boolean } | { stored: false; reason: string };

const execFileAsync = promisify(execFile);
const TOOL_ENV = { PATH: '/usr/bin:/bin', LC_ALL: 'C' };

/**
 * The entry as the restore expects it: files owned by `CACHE_OWNER` and read-only for everyone,
 * folders ours (restored folders are handed to the sandbox with the worktree), no links (the
 * manifest lists them; the restore makes them). One `find` over the tree.
 */
async function takeOver(files: string): Promise<void> {
  const ours = `${process.getuid?.() ?? 0}:${process.getgid?.() ?? 0}`;
  const owner = `${CACHE_OWNER.uid}:${CACHE_OWNER.gid}`;
  const exec = (...cmd: string[]): string[] => ['-exec', ...cmd, '{}', '+'];
  await execFileAsync(
    'find',
    [
      files,
      ...['(', '-type', 'l', '-delete', ')', '-o'],
      ...['(', '-type', 'd', ...exec('chown', ours), ...exec('chmod', 'u+rwx'), ')', '-o'],
      ...['(', '-type', 'f', ...exec('chown', owner), ...exec('chmod', 'a+r,a-w,u-s,g-s'), ')'],
    ],
    { env: TOOL_ENV },
  );
}

/**
 * The files under `products` (links not followed, FIFOs and devices skipped) that hold `jobDir`,
 * found by one `grep` (28,000 files: 2.4 → 0.4 s), each classified as text or binary. Files over
 * `SCAN_BYTES` are left as they are.
 */
async function embeddings(
  worktree: string,
  products: readonly string[],
  jobDir: string,
): Promise<Map<string, 'text' | 'binary'>> {
  const out = new Map<string, 'text' | 'binary'>();
  if (products.length === 0) return out;
  const args = ['-rlFZ', '-D', 'skip', '-e', jobDir, '--', ...products.map((p) => `./${p}`)];
  const listed = await execFileAsync('grep', args, {
    cwd: worktree,
    env: TOOL_ENV,
    maxBuffer: 1 << 28,
  }).then(
    (r) => r.stdout,
    (err: Error & { code?: number; stderr?: string }) => {
      if (err.code === 1) return ''; // nothing holds it
      throw new Error(`searching for the job's path failed: ${err.stderr || err.message}`);
    },
  );
  for (const name of listed.split('\0').filter(Boolean)) {
    const p = name.replace(/^\.\//, '');
    const s = await lstat(join(worktree, p));
    if (!s.isFile() || s.size > SCAN_BYTES) continue;
    const found = embeddedPath(await readFile(join(worktree, p)), jobDir);
    if (found !== 'none') out.set(p, found);
  }
  return out;
}

/** The products as the entry's files: whole trees by `cp`, shared inodes copied, not taken. */
async function placeProducts(
  input: CaptureInput,
  walked: Walked,
  files: string,
  left: ReadonlySet<string>,
): Promise<void> {
  for (const p of input.products) {
    if (walked.links.includes(p)) continue; // a link: recorded below
    await copyTree(join(input.worktree, p), join(files, p), input.mode);
  }
  for (const p of left) await rm(join(files, p), { force: true });
  if (input.mode === 'copy') {
    await execFileAsync('find', [files, '-type', 'l', '-delete'], { env: TOOL_ENV });
    return;
  }
  // A file already linked elsewhere (a pnpm store's inode) is copied, never taken over: only
  // inodes setup made for this worktree alone become the cache's.
  await eachLimit([...walked.shared], PARALLEL, async (p) => {
    if (left.has(p)) return;
    await rm(join(files, p), { force: true });
    await copyFile(join(input.worktree, p), join(files, p), constants.COPYFILE_FICLONE);
  });
  await takeOver(files);
}

/** The files, links and directories of the entry written under `tmp`; its manifest returned. */
async function fill(input: CaptureInput, tmp: string): Promise<Manifest | string> {
  const walked = await walkProducts(input.worktree, input.products);
  if (walked.special.length > 0) return `setup made special files (${walked.special[0]})`;
  const files = join(tmp, 'files');
  // Searched before anything is linked: an uncacheable result leaves the worktree as it was.
  const trees = input.products.filter((p) => !walked.links.includes(p));
  const relocate: string[] = [];
  const left = new Set<string>();
  for (const [p, found] of await embeddings(input.worktree, trees, input.jobDir)) {
    // Python's bytecode names its source's path: left out, Python compiles it again.
    if (found === 'binary' && p.endsWith('.pyc')) left.add(p);
    else if (found === 'binary') return `a binary file embeds the job's path (${p})`;
    else relocate.push(p);
  }
  await mkdir(files, { recursive: true });
  await placeProducts(input, walked, files, left);
  const links: Manifest['links'] = [];
  for (const p of walked.links) {
    const target = await readlink(join(input.worktree, p));
    links.push({ p, target });
    if (target.includes(input.jobDir)) relocate.push(p);
  }
  const tracked = await copyTracked(input, join(tmp, 'tracked'));
  if (typeof tracked === 'string') return tracked;
  const identities = await fileIdentities(files);
  const kept = walked.files.filter((p) => !left.has(p));
  const records: FileRecord[] = kept.map((p) => {
    const found = identities.get(p);
    if (!found) throw new Error(`cached file missing: ${p}`);
    return { p, size: found.size, id: found.id, ctime: found.ctime, mode: modeOf(found.id) };
  });
  return {
    version: SETUP_CACHE_VERSION,
    key: input.key,
    products: [...input.products],
    dirs: walked.dirs,
    files: records.sort((a, b) => (a.p < b.p ? -1 : 1)),
    links,
    relocate: relocate.sort(),
    jobDir: input.jobDir,
    mode: input.mode,
    sourceDependent: input.sourceDependent,
    tracked,
  };
}

/** Copies of the tracked files setup rewrote; a reason when one embeds the job's path. */
async function copyTracked(
  input: CaptureInput,
  dir: string,
): Promise<Manifest['tracked'] | string> {
  const out: Manifest['tracked'] = [];
  for (const p of input.trackedEdits) {
    const src = join(input.worktree, p);
    // Checked before anything opens it: a FIFO would block the read, a huge file fill the disk.
    const s = await lstat(src);
    if (!s.isFile() || s.nlink > 1) return `setup turned a tracked file into something else (${p})`;
    if (s.size > TRACKED_MAX_BYTES) return `a tracked file setup rewrote is too large (${p})`;
    const text = s.size <= SCAN_BYTES ? await readFile(src) : undefined;
    if (text && embeddedPath(text, input.jobDir) !== 'none')
      return `a tracked file setup rewrote embeds the job's path (${p})`;
    await mkdir(join(dir, p, '..'), { recursive: true });
    await copyFile(src, join(dir, p));
    out.push({ p, mode: s.mode & 0o777 });
  }
  return out;
}

/** Captures the products as entry `key`; a reason instead when they cannot be cached. */
export async function captureEntry(input: CaptureInput): Promise<CaptureResult> {
  const tmp = asideName(input.root, 'building', input.key);
  await mkdir(tmp, { recursive: true });
  try {
    const manifest = await fill(input, tmp);
    if (typeof manifest === 'string') return { stored: false, reason: manifest };
    const meta: EntryMeta = {
      key: input.key,
      files: manifest.files.length,
      bytes: manifest.files.reduce((sum, f) => sum + f.size, 0),
      created_at: new Date().toISOString(),
    };
    await writeFile(join(tmp, 'manifest.json'), JSON.stringify(manifest));
    await writeFile(join(tmp, 'meta.json'), JSON.stringify(meta));
    await writeFile(join(tmp, 'used'), '');
    await mkdir(join(input.root, 'entries'), { recursive: true });
    try {
      await rename(tmp, entryDir(input.root, input.key));
      return { stored: true, meta, raced: false };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
      return { stored: true, meta, raced: true };
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
