/**
 * What of the host a sandboxed command may see. Hidden behind empty tmpfs mounts: every home
 * directory (the worker's `~/.npmrc`, `~/.ssh`, `~/.gitconfig`, `~/.autofix`), `/run` (sockets
 * of Docker, Redis, D-Bus…), `/var/tmp`, `/mnt`, `/media`, `/srv`, and what the caller names (the
 * workdir, the directories of the App's key and `.env`).
 *
 * Toolchains installed under a home directory (pyenv, nvm, cargo, the Node running us) would
 * vanish with it, so the toolchain of each PATH entry inside a hidden home is bound back
 * read-only — its own directory (`~/.pyenv`), never the whole home — with the variables that tell
 * it where it lives (the command's HOME is a fresh empty directory), and known credential files
 * inside masked.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, relative, sep } from 'node:path';

export const ALWAYS_HIDDEN = ['/root', '/home', '/run', '/var/tmp', '/mnt', '/media', '/srv'];

/** Toolchain directories that find themselves through a variable defaulting to `$HOME/<dir>`. */
const TOOLCHAINS: Record<string, { env?: string; companions?: string[]; secrets?: string[] }> = {
  '.pyenv': { env: 'PYENV_ROOT' },
  '.cargo': {
    env: 'CARGO_HOME',
    companions: ['.rustup'],
    secrets: ['credentials', 'credentials.toml'],
  },
  '.rustup': { env: 'RUSTUP_HOME' },
  '.nvm': { env: 'NVM_DIR' },
  '.volta': { env: 'VOLTA_HOME' },
  '.bun': { env: 'BUN_INSTALL' },
  '.deno': { env: 'DENO_INSTALL' },
};

export interface SandboxFilesystem {
  hidden: string[];
  /** Bound back read-only on top of the hidden directories. */
  readOnly: string[];
  /** Credential files inside those, masked with an empty file. */
  masked: string[];
  /** Variables the re-exposed toolchains need now that HOME is elsewhere. */
  env: Record<string, string>;
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

export interface SandboxFilesystemInput {
  /** Extra directories to hide (policy and caller). */
  hidden: readonly string[];
  /** The worker's PATH. */
  path?: string;
  /** The Node binary (the egress bridge runs on it). */
  execPath?: string;
  home?: string;
  exists?: (path: string) => boolean;
}

export function sandboxFilesystem(input: SandboxFilesystemInput): SandboxFilesystem {
  const exists = input.exists ?? existsSync;
  const home = input.home ?? homedir();
  const hidden = [...new Set([...ALWAYS_HIDDEN, home, ...input.hidden])].filter(
    (d) => isAbsolute(d) && d !== '/' && exists(d),
  );
  // A hidden directory inside another one is covered already.
  const roots = hidden.filter((d) => !hidden.some((o) => o !== d && inside(d, o)));
  const homes = [home, '/root', ...(exists('/home') ? ['/home/*'] : [])];

  const readOnly = new Set<string>();
  const masked: string[] = [];
  const env: Record<string, string> = {};
  const expose = (dir: string): void => {
    if (!roots.some((r) => inside(dir, r))) return; // visible anyway
    const toolchain = toolchainRoot(dir, homes);
    if (toolchain === null) {
      readOnly.add(dir);
      return;
    }
    const name = toolchain.slice(toolchain.lastIndexOf(sep) + 1);
    const known = TOOLCHAINS[name];
    for (const extra of [
      toolchain,
      ...(known?.companions ?? []).map((c) => join(dirname(toolchain), c)),
    ]) {
      if (readOnly.has(extra) || !exists(extra)) continue;
      readOnly.add(extra);
      const info = TOOLCHAINS[extra.slice(extra.lastIndexOf(sep) + 1)];
      if (info?.env) env[info.env] = extra;
      for (const secret of info?.secrets ?? []) {
        if (exists(join(extra, secret))) masked.push(join(extra, secret));
      }
    }
  };
  for (const entry of (input.path ?? '').split(delimiter)) {
    if (isAbsolute(entry) && exists(entry)) expose(entry);
  }
  if (input.execPath) expose(dirname(input.execPath));
  return { hidden: roots, readOnly: [...readOnly], masked, env };
}

/** Home subdirectories that hold more than one tool's data: only the PATH entry itself is shown. */
const SHARED = new Set(['.local', '.config', 'bin']);

/**
 * `~/.pyenv` for `~/.pyenv/shims`; null when the directory is not a tool's own directory inside a
 * home directory (then only the directory itself is shown).
 */
function toolchainRoot(dir: string, homes: readonly string[]): string | null {
  const root = homeChild(dir, homes);
  return root !== null && !SHARED.has(root.slice(root.lastIndexOf(sep) + 1)) ? root : null;
}

function homeChild(dir: string, homes: readonly string[]): string | null {
  for (const home of homes) {
    if (home.endsWith('/*')) {
      const base = home.slice(0, -2);
      const rel = relative(base, dir).split(sep);
      if (rel.length >= 3 && rel[0] !== '..') return join(base, rel[0]!, rel[1]!);
      continue;
    }
    const rel = relative(home, dir).split(sep);
    if (rel.length >= 2 && rel[0] !== '..' && rel[0] !== '') return join(home, rel[0]!);
  }
  return null;
}
