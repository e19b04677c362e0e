/** The real CodeWorkspace: the edit engine and the sandboxed runner over a job's worktree. */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { RepoConfig } from '../../config/repo-config.js';
import { applyEdits, pathPolicy, type PathPolicy } from '../../edits/index.js';
import { readRepoText } from '../../edits/read-repo-text.js';
import {
  runValidation,
  withRepoSandbox,
  type SandboxMode,
  type ValidationOptions,
} from '../../exec/index.js';
import { gitApplyCheck } from '../../git/apply-check.js';
import { checkIgnore } from '../../git/check-ignore.js';
import type { Workspace } from '../../git/workspace.js';
import type { CodeWorkspace } from './run-code-agent.js';

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
    },
  };
}

export function createCodeWorkspace(
  ws: Workspace,
  config: RepoConfig,
  options: Omit<
    ValidationOptions,
    'skipSetup' | 'home' | 'tmpDir' | 'readOnlyPaths' | 'setupCache'
  >,
): CodeWorkspace {
  const policy = repoPathPolicy(config);
  // The repository may ask for the sandbox on a worker whose operator turned it off; never less.
  const sandbox = withRepoSandbox(options.sandbox, config.sandbox);
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
    validate: async ({ skipSetup }) => {
      if (!skipSetup && config.setup.length > 0) await mkdir(ws.cacheDir, { recursive: true });
      return runValidation(config, ws.worktree, {
        ...options,
        sandbox,
        skipSetup,
        home: ws.homeDir,
        tmpDir: ws.tmpDir,
        setupCache: setupCache(ws.homeDir, ws.cacheDir, sandbox.mode),
        // The workspace's own list plus the caller's (directories holding the worker's secrets).
        hiddenPaths: [...ws.sandboxHidden, ...(options.hiddenPaths ?? [])],
        readOnlyPaths: ws.sandboxReadOnly,
      });
    },
  };
}
