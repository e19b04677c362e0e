/** The real CodeWorkspace: the edit engine and the sandboxed runner over a job's worktree. */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RepoConfig } from '../../config/repo-config.js';
import { BASELINE_MAX_AGE_MS, pruneOlderThan } from '../../artifacts/prune.js';
import { applyEdits, pathPolicy, type PathPolicy } from '../../edits/index.js';
import { readRepoText } from '../../edits/read-repo-text.js';
import {
  runValidation,
  TOOLCHAIN_SHARED_CACHES,
  toolchainSetupEnv,
  toolchainValidateEnv,
  withRepoSandbox,
  type SandboxMode,
  type SandboxPolicy,
  type ValidateCache,
  type ValidationOptions,
  type ValidationRun,
} from '../../exec/index.js';
import { gitApplyCheck } from '../../git/apply-check.js';
import { checkIgnore } from '../../git/check-ignore.js';
import type { Workspace } from '../../git/workspace.js';
import { worktreeGit } from '../../git/worktree-git.js';
import { baselineEntry, baselineKey, type Baseline } from './baseline.js';
import { cachedSetup } from './cached-setup.js';
import { toolchainWarnings, withWarnings } from './toolchain-warnings.js';
import type { CodeWorkspace, CommandHooks } from './run-code-agent.js';

export function repoPathPolicy(
  config: Pick<RepoConfig, 'protected_paths' | 'allowed_paths'>,
): PathPolicy {
  return pathPolicy({ protectedPaths: config.protected_paths, allowedPaths: config.allowed_paths });
}

/**
 * The repository's package caches, bound into `setup` as the fresh HOME's `.cache` (pip, yarn 1,
 * and the variables below point npm, yarn berry and pnpm there too): a warm repository does not
 * download every package again. `validate` never gets them. Without a sandbox there is nothing to
 * bind: the variables name the cache directory itself.
 */
export function setupCache(
  home: string,
  cacheDir: string,
  mode: SandboxMode,
): NonNullable<ValidationOptions['setupCache']> {
  const inside = mode === 'bwrap' ? join(home, '.cache') : cacheDir;
  return {
    binds: mode === 'bwrap' ? [{ src: cacheDir, dest: inside }] : [],
    env: {
      XDG_CACHE_HOME: inside,
      npm_config_cache: join(inside, 'npm'),
      YARN_CACHE_FOLDER: join(inside, 'yarn'),
      // pnpm's store lives under XDG_DATA_HOME (`npm_config_store_dir` makes npm warn).
      XDG_DATA_HOME: join(inside, 'data'),
      PIP_CACHE_DIR: join(inside, 'pip'),
      // Go's modules and build cache, Maven's repository, Gradle's home (exec/toolchains/).
      ...toolchainSetupEnv({ cache: inside }),
    },
  };
}

/** Where `validate` sees the repository's caches, read-only (the sandbox's private /tmp). */
export const VALIDATE_CACHE_DIR = '/tmp/autofix-setup-cache';
/** Where `validate` sees the job's build caches, writable (`buildCacheDir`). */
export const VALIDATE_BUILD_DIR = '/tmp/autofix-job-build';

/** The job's own build caches (Go's GOCACHE…), kept across its validation runs. */
export function buildCacheDir(tmpDir: string): string {
  return join(tmpDir, 'build');
}

/**
 * What `validate` (no network) gets of the caches `setup` filled: read-only, the toolchains'
 * downloads that cannot be fetched at build time (Go modules, Maven and Gradle dependencies; those
 * folders only, each where setup has made it: `exists`), with their writable build caches in the
 * job's own folder (`buildCacheDir`).
 */
export function validateCache(
  cacheDir: string,
  tmpDir: string,
  mode: SandboxMode,
  exists: (path: string) => boolean = existsSync,
): ValidateCache {
  const build = buildCacheDir(tmpDir);
  if (mode !== 'bwrap')
    return { binds: [], env: toolchainValidateEnv({ cache: cacheDir, tmp: tmpDir, build }) };
  const shared = TOOLCHAIN_SHARED_CACHES.filter((sub) => exists(join(cacheDir, sub)));
  return {
    binds: [
      ...shared.map((sub) => ({
        src: join(cacheDir, sub),
        dest: join(VALIDATE_CACHE_DIR, sub),
        readOnly: true,
      })),
      { src: build, dest: VALIDATE_BUILD_DIR },
    ],
    env: toolchainValidateEnv({
      cache: VALIDATE_CACHE_DIR,
      tmp: '/tmp',
      build: VALIDATE_BUILD_DIR,
    }),
  };
}

/** What the caller decides of every validation run; the workspace adds its own paths. */
type RunOptions = Omit<
  ValidationOptions,
  'skipSetup' | 'home' | 'tmpDir' | 'readOnlyPaths' | 'setupCache'
>;

type RunValidation = (
  cfg: RepoConfig,
  extra: Pick<ValidationOptions, 'skipSetup' | 'onStart' | 'onResult' | 'tolerate'>,
) => Promise<ValidationRun>;

/** Validation in the job's worktree: its HOME, TMPDIR, package caches and sandbox view. */
function runnerIn(ws: Workspace, options: RunOptions, sandbox: SandboxPolicy): RunValidation {
  let warnings: Promise<string[]> | undefined;
  return async (cfg, extra) => {
    if (!extra.skipSetup && cfg.setup.length > 0) await mkdir(ws.cacheDir, { recursive: true });
    // Bound writable into validate.
    await mkdir(buildCacheDir(ws.tmpDir), { recursive: true });
    warnings ??= toolchainWarnings(ws.worktree, options.baseEnv);
    const run = await runValidation(cfg, ws.worktree, {
      ...options,
      ...extra,
      sandbox,
      home: ws.homeDir,
      tmpDir: ws.tmpDir,
      setupCache: setupCache(ws.homeDir, ws.cacheDir, sandbox.mode),
      validateCache: () => validateCache(ws.cacheDir, ws.tmpDir, sandbox.mode),
      // The workspace's own list plus the caller's (directories holding the worker's secrets).
      hiddenPaths: [...ws.sandboxHidden, ...(options.hiddenPaths ?? [])],
      readOnlyPaths: ws.sandboxReadOnly,
    });
    return withWarnings(run, await warnings);
  };
}

/** The base commit's validation, from the cache or run (every command) and cached. */
async function baselineOf(
  ws: Workspace,
  config: RepoConfig,
  io: { run: RunValidation; mode: SandboxMode; options: RunOptions },
  hooks: CommandHooks,
): ReturnType<CodeWorkspace['baseline']> {
  if (!config.baseline || config.validate.length === 0) return null;
  const { options } = io;
  const commit = (await worktreeGit(ws, ['rev-parse', 'HEAD'])).stdout.trim();
  const key = baselineKey(commit, config, io.mode);
  const file = join(ws.workdir, 'baselines', `${key}.json`);
  const cached = await readBaseline(file, key);
  if (cached) return { baseline: cached, cached: true };
  const validation = await io.run(config, {
    ...hooks,
    skipSetup: true,
    // Every command runs, to know each one's state on the base commit.
    tolerate: () => '',
  });
  // Cut short (the run is ending): nothing to compare with, and nothing to cache.
  if (hooks.signal?.aborted || options.signal?.aborted) return null;
  if (validation.results.length !== config.validate.length) return null;
  await restoreTracked(ws);
  const baseline: Baseline = {
    commit,
    key,
    commands: validation.results.map(baselineEntry),
    created_at: new Date().toISOString(),
  };
  await writeBaseline(file, baseline).catch((err: unknown) =>
    options.logger?.warn({ err: String(err) }, 'baseline not cached'),
  );
  await pruneOlderThan(join(ws.workdir, 'baselines'), BASELINE_MAX_AGE_MS, {
    ...(options.logger ? { log: options.logger } : {}),
  });
  return { baseline, cached: false, run: validation };
}

export function createCodeWorkspace(
  ws: Workspace,
  config: RepoConfig,
  options: RunOptions,
  mustPass?: readonly string[],
): CodeWorkspace {
  const policy = repoPathPolicy(config);
  // The repository may ask for the sandbox on a worker whose operator turned it off; never less.
  const sandbox = withRepoSandbox(options.sandbox, config.sandbox);
  const run = runnerIn(ws, options, sandbox);
  return {
    readFile: (path) => readRepoText(ws.worktree, path),
    apply: (format, texts, scope) =>
      applyEdits({
        repoDir: ws.worktree,
        format,
        text: texts,
        scope,
        policy,
        isIgnored: (paths) => checkIgnore(ws.worktree, paths, { gitDir: ws.gitDir }),
        checkDiff: (dir, diff) => gitApplyCheck(dir, diff, { gitDir: ws.gitDir }),
      }),
    // Once per run and warm across runs: through the repository's setup cache.
    setup: async (hooks) => {
      if (config.setup.length === 0) return undefined;
      return cachedSetup(ws, config, hooks, {
        sandbox,
        options,
        runSetup: () => run({ ...config, validate: [] }, { ...hooks, skipSetup: false }),
      });
    },
    baseline: (hooks) => baselineOf(ws, config, { run, mode: sandbox.mode, options }, hooks),
    // Commands that must pass with the change but have no baseline (a reproduction, which
    // fails on the base commit by design: never excused as pre-existing).
    validate: (validateOptions) =>
      run({ ...config, validate: [...config.validate, ...(mustPass ?? [])] }, validateOptions),
    // The model's own test runs (the tool loop's run_tests): validation's sandbox, setup done.
    runCommands: (commands, hooks) =>
      run(
        { ...config, validate: [...commands] },
        { ...hooks, skipSetup: true, tolerate: () => undefined },
      ),
    mustPass: () => [...(mustPass ?? [])],
  };
}

/** A cached baseline of the same key, or undefined (missing, unreadable, another shape). */
async function readBaseline(file: string, key: string): Promise<Baseline | undefined> {
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as Baseline;
    return value.key === key && Array.isArray(value.commands) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Written aside and renamed: a concurrent reader sees the old file or the whole new one. */
async function writeBaseline(file: string, baseline: Baseline): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(baseline, null, 2)}\n`);
  await rename(tmp, file);
}

/**
 * Tracked files a validate command rewrote on the base commit (a build step, a snapshot update)
 * are put back, so the change is applied to the commit's own content.
 */
async function restoreTracked(ws: Workspace): Promise<void> {
  const changed = (await worktreeGit(ws, ['diff', '--name-only', '-z', 'HEAD'])).stdout
    .split('\0')
    .filter(Boolean);
  if (changed.length > 0) await worktreeGit(ws, ['checkout', 'HEAD', '--', ...changed]);
}
