/**
 * The setup cache (issue #38): what a repository's `setup` produced in a worktree, kept per
 * repository and key, restored into a later job's worktree instead of running setup again. The
 * key (cache-key.ts) covers everything that decides the result; one that also built from the
 * sources is keyed with the tree. A failed setup drops its key's entry, an entry whose files
 * changed is dropped when found, and the folder stays under its size, least recently used first.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { worktreeGit } from '../../git/worktree-git.js';
import type { SandboxPolicy } from '../sandbox-policy.js';
import { captureEntry } from './capture.js';
import { dependencyKey, sourceKey } from './cache-key.js';
import { setupProducts } from './captured-paths.js';
import { dropEntry, evict, takeLease, touchEntry } from './evict.js';
import { commitInputs, platformOf, toolchainOf } from './key-inputs.js';
import { cacheRoot, kindFile, type LinkMode } from './layout.js';
import { restoreEntry } from './restore.js';

export interface SetupCacheOptions {
  workdir: string;
  /** `owner/name`: one cache folder per repository. */
  repo: string;
  worktree: string;
  gitDir: string;
  /** The job's folder: what files that embed a path embed. */
  jobDir: string;
  /** The HOME setup gets: a setup that installs there is not cached (a hit would lack it). */
  homeDir: string;
  setup: readonly string[];
  sandbox: SandboxPolicy;
  maxBytes: number;
  /** The environment setup commands get their PATH from (toolchains); the worker's by default. */
  baseEnv?: NodeJS.ProcessEnv;
}

export interface SetupCacheOutcome {
  /** `handed`: taken from an earlier stage of the same run (handoff.ts), nothing restored. */
  status: 'hit' | 'handed' | 'stored' | 'not-stored' | 'miss';
  key: string;
  files: number;
  bytes: number;
  ms: number;
  mode: LinkMode;
  reason?: string;
}

export interface SetupCache {
  /** The key this worktree's setup has (the one a restore looks up). */
  key(): Promise<string>;
  /** Restores the entry of this worktree's key: a hit, or the miss and why. */
  restore(): Promise<SetupCacheOutcome>;
  /** After a setup that passed: captures what it produced. */
  store(): Promise<SetupCacheOutcome>;
  /** After a setup that failed: its key's entry must not outlive it. */
  drop(): Promise<void>;
}

/**
 * Hard links only where the sandbox cannot write a cached inode: root with bwrap, commands as an
 * unprivileged uid without capabilities. Elsewhere the command runs as the owner of the files
 * (no sandbox, or bwrap as our own user) and could chmod them back: copies.
 */
export function linkModeFor(sandbox: SandboxPolicy): LinkMode {
  return sandbox.mode === 'bwrap' && sandbox.runAs && process.getuid?.() === 0 ? 'link' : 'copy';
}

interface Keys {
  dep: string;
  full: string;
  /** The key this worktree's entry has (full when its setup builds from sources). */
  lookup: string;
}

async function keysOf(o: SetupCacheOptions, root: string): Promise<Keys> {
  const ref = { worktree: o.worktree, gitDir: o.gitDir };
  const [{ lockfiles, tree }, toolchain] = await Promise.all([
    commitInputs(ref),
    toolchainOf((o.baseEnv ?? process.env).PATH),
  ]);
  const sandbox = `${o.sandbox.mode}${o.sandbox.runAs ? ` as ${o.sandbox.runAs.uid}` : ''}`;
  const dep = dependencyKey({
    lockfiles,
    setup: o.setup,
    toolchain,
    platform: platformOf(),
    sandbox: `${sandbox} ${linkModeFor(o.sandbox)}`,
  });
  const full = sourceKey(dep, tree);
  return { dep, full, lookup: existsSync(kindFile(root, dep)) ? full : dep };
}

/** Whether setup left anything in HOME besides the package caches' mount point. */
async function wroteHome(homeDir: string): Promise<boolean> {
  const names = await readdir(homeDir).catch(() => [] as string[]);
  for (const name of names) {
    if (name !== '.cache') return true;
    if ((await readdir(join(homeDir, name)).catch(() => [])).length > 0) return true;
  }
  return false;
}

export function openSetupCache(o: SetupCacheOptions): SetupCache {
  const root = cacheRoot(o.workdir, o.repo);
  const mode = linkModeFor(o.sandbox);
  let keys: Promise<Keys> | undefined;
  const keysOnce = (): Promise<Keys> => (keys ??= keysOf(o, root));
  const outcome = (
    status: SetupCacheOutcome['status'],
    key: string,
    started: number,
    extra: Partial<SetupCacheOutcome> = {},
  ): SetupCacheOutcome => ({
    status,
    key,
    files: 0,
    bytes: 0,
    ms: Math.round(performance.now() - started),
    mode,
    ...extra,
  });
  return {
    key: async () => (await keysOnce()).lookup,
    restore: async () => {
      const started = performance.now();
      const { lookup } = await keysOnce();
      const release = await takeLease(root, lookup);
      try {
        const r = await restoreEntry(root, lookup, o.worktree, o.jobDir);
        if (!r.restored) {
          if (r.poisoned) await dropEntry(root, lookup);
          return outcome('miss', lookup, started, { reason: r.reason });
        }
        await touchEntry(root, lookup);
        const slow = r.slowPath ? { reason: `restored file by file: ${r.slowPath}` } : {};
        return outcome('hit', lookup, started, { files: r.files, bytes: r.bytes, ...slow });
      } finally {
        await release();
      }
    },
    store: () => storeEntry(o, root, mode, keysOnce, outcome),
    drop: async () => {
      const k = await keysOnce();
      await Promise.all([dropEntry(root, k.dep), dropEntry(root, k.full)]);
    },
  };
}

async function storeEntry(
  o: SetupCacheOptions,
  root: string,
  mode: LinkMode,
  keysOnce: () => Promise<Keys>,
  outcome: (
    s: SetupCacheOutcome['status'],
    key: string,
    started: number,
    extra?: Partial<SetupCacheOutcome>,
  ) => SetupCacheOutcome,
): Promise<SetupCacheOutcome> {
  const started = performance.now();
  const k = await keysOnce();
  const status = await worktreeGit({ worktree: o.worktree, gitDir: o.gitDir }, [
    'status',
    '--porcelain=v1',
    '-z',
    '--ignored=traditional',
    '--untracked-files=normal',
  ]);
  const found = setupProducts(status.stdout);
  const key = found.sourceDependent ? k.full : k.dep;
  const refuse = (reason: string): SetupCacheOutcome =>
    outcome('not-stored', key, started, { reason });
  if (found.trackedChanges.length > 0) {
    // A restore would bring back the products without those changes.
    return refuse(
      `setup deleted, renamed or added tracked files (${found.trackedChanges.slice(0, 3).join(', ')})`,
    );
  }
  if (found.products.length === 0) return refuse('setup produced nothing in the worktree');
  if (await wroteHome(o.homeDir)) return refuse('setup wrote to HOME, which is not cached');
  if (found.sourceDependent) {
    await mkdir(join(root, 'kinds'), { recursive: true });
    await writeFile(kindFile(root, k.dep), 'source\n');
  }
  const release = await takeLease(root, key);
  try {
    const captured = await captureEntry({
      root,
      key,
      worktree: o.worktree,
      jobDir: o.jobDir,
      products: found.products,
      trackedEdits: found.trackedEdits,
      sourceDependent: found.sourceDependent,
      mode,
    });
    if (!captured.stored) return refuse(captured.reason);
    await evict(root, o.maxBytes, key);
    return outcome('stored', key, started, {
      files: captured.meta.files,
      bytes: captured.meta.bytes,
      ...(captured.raced ? { reason: 'another job stored the same key first' } : {}),
    });
  } finally {
    await release();
  }
}
