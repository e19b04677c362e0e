/**
 * The inputs of a setup-cache key, read from git and the machine: the lockfiles' blob ids (a
 * `package.json`'s install part, read at the commit through `repo-files/`) and the tree, the toolchains on the PATH setup gets, the
 * platform. Toolchain versions are asked once per binary identity (path, size, mtime).
 */
import { execFile } from 'node:child_process';
import { realpath, stat } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { worktreeGit, type WorktreeRef } from '../../git/worktree-git.js';
import { readCommitFiles } from '../../repo-files/read-commit-files.js';
import { isLockfile, packageJsonInstallPart } from './cache-key.js';

/** Programs setup commands commonly run; each one's identity enters the key. */
const TOOLS = [
  'node',
  'npm',
  'npx',
  'yarn',
  'pnpm',
  'corepack',
  'bun',
  'python3',
  'python',
  'pip',
  'pip3',
  'uv',
  'poetry',
  'ruby',
  'bundle',
  'php',
  'composer',
  'go',
  'cargo',
  'rustc',
  'make',
  'gcc',
  'cc',
];
/** Those whose `--version` is asked too (cheap, and what a reader of the key recognises). */
const VERSIONED = new Set(['node', 'python3']);

const versions = new Map<string, Promise<string>>();

function versionOf(file: string, identity: string): Promise<string> {
  let known = versions.get(identity);
  if (!known) {
    known = new Promise((resolve) => {
      execFile(file, ['--version'], { timeout: 10_000 }, (err, stdout, stderr) =>
        resolve(err ? 'unknown' : `${stdout}${stderr}`.trim()),
      );
    });
    versions.set(identity, known);
  }
  return known;
}

async function identityOf(dirs: readonly string[], tool: string): Promise<string | undefined> {
  for (const dir of dirs) {
    const file = join(dir, tool);
    try {
      const real = await realpath(file);
      const s = await stat(real);
      if (!s.isFile()) continue;
      const identity = `${tool} ${real} ${s.size} ${Math.trunc(s.mtimeMs)}`;
      return VERSIONED.has(tool) ? `${identity} ${await versionOf(real, identity)}` : identity;
    } catch {
      // Not in this directory.
    }
  }
  return undefined;
}

/** Every known toolchain found on `path`, as a stable list of identities. */
export async function toolchainOf(path: string | undefined): Promise<string[]> {
  const dirs = (path ?? '/usr/local/bin:/usr/bin:/bin').split(delimiter).filter(Boolean);
  const found = await Promise.all(TOOLS.map((tool) => identityOf(dirs, tool)));
  return found.filter((t): t is string => t !== undefined);
}

let platform: string | undefined;

/** `linux-x64 glibc 2.36` (native builds depend on the C library too). */
export function platformOf(): string {
  if (platform === undefined) {
    const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } };
    const libc = report?.header?.glibcVersionRuntime;
    platform = `${process.platform}-${process.arch}${libc ? ` glibc ${libc}` : ''}`;
  }
  return platform;
}

/** Lockfiles and manifests of HEAD with their blob ids, and HEAD's tree. */
export async function commitInputs(
  ref: WorktreeRef,
): Promise<{ lockfiles: [string, string][]; tree: string }> {
  const [listing, tree] = await Promise.all([
    worktreeGit(ref, ['ls-tree', '-r', '-z', '--full-tree', 'HEAD']),
    worktreeGit(ref, ['rev-parse', 'HEAD^{tree}']),
  ]);
  const lockfiles: [string, string][] = [];
  for (const line of listing.stdout.split('\0')) {
    // `<mode> blob <oid>\t<path>`
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const [, type, oid] = line.slice(0, tab).split(' ');
    const path = line.slice(tab + 1);
    if (type === 'blob' && oid && isLockfile(path)) lockfiles.push([path, oid]);
  }
  return { lockfiles: await withInstallParts(ref, lockfiles), tree: tree.stdout.trim() };
}

/** `package.json` files keyed by what of them decides the install, not by their whole text. */
async function withInstallParts(
  ref: WorktreeRef,
  lockfiles: [string, string][],
): Promise<[string, string][]> {
  const manifests = lockfiles.filter(([path]) => /(^|\/)package\.json$/.test(path));
  if (manifests.length === 0) return lockfiles;
  const read = await readCommitFiles(
    { cwd: ref.worktree, gitDir: ref.gitDir, commit: 'HEAD' },
    manifests.map(([path]) => path),
    { maxBytes: 1024 * 1024 },
  );
  return lockfiles.map(([path, oid]) => {
    const got = read.get(path);
    const part = got?.ok ? packageJsonInstallPart(got.text) : undefined;
    return [path, part === undefined ? oid : `install ${part}`];
  });
}
