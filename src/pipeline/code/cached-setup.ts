/**
 * `setup` through the repository's setup cache (exec/setup-cache/): a hit restores what an
 * earlier job's setup installed for the same key and nothing runs; a miss runs setup and stores
 * what it produced (the reproduce stage's setup fills it, the code stage and verify restore it:
 * a run installs at most once). A setup that fails drops its key's entry. The outcome is a
 * line of the run's progress and log ("setup restored from cache (key …, N files, X ms)").
 * A worktree whose setup already passed for the same key (`autofix run`: every stage in one
 * worktree) is not set up again: the job's folder keeps the key of its last passed setup. In the
 * app, where each stage has its own worktree, what an earlier stage of the run set up is handed
 * on by renaming (exec/setup-cache/handoff.ts): a run restores at most once too.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { DEFAULT_SETUP_CACHE_MB } from '../../config/env.js';
import type { RepoConfig } from '../../config/repo-config.js';
import {
  linkModeFor,
  openSetupCache,
  setupDoneFile,
  takeHandOff,
  unsandboxedWarning,
  type ExecResult,
  type SandboxPolicy,
  type SetupCacheOutcome,
  type ValidationOptions,
  type ValidationRun,
} from '../../exec/index.js';
import type { Workspace } from '../../git/workspace.js';
import type { CommandHooks } from './run-code-agent.js';

export interface CachedSetupIo {
  sandbox: SandboxPolicy;
  options: Pick<ValidationOptions, 'logger' | 'baseEnv'>;
  runSetup: () => Promise<ValidationRun>;
}

/** The one line a hit shows where setup's commands would have been. */
export function restoredLine(hit: SetupCacheOutcome): string {
  return `setup restored from cache (key ${hit.key.slice(0, 12)}, ${hit.files} files, ${hit.ms} ms)`;
}

/** The line of a worktree set up already (an earlier stage of the same run, the same key). */
export function alreadySetUpLine(key: string): string {
  return `setup already done in this worktree (key ${key.slice(0, 12)}): not run again`;
}

/** The line of a worktree given what an earlier stage of the run set up. */
export function handedLine(hit: SetupCacheOutcome): string {
  return `setup handed on from an earlier stage of this run (key ${hit.key.slice(0, 12)}, ${hit.files} paths, ${hit.ms} ms): not run again`;
}

function restoredRun(
  hit: SetupCacheOutcome,
  sandbox: SandboxPolicy,
  hooks: CommandHooks,
  line = restoredLine(hit),
): ValidationRun {
  hooks.onStart?.(line, 'setup');
  const result: ExecResult = {
    command: line,
    exit_code: 0,
    stdout: '',
    stderr: '',
    duration_ms: hit.ms,
    timed_out: false,
    sandboxed: sandbox.mode === 'bwrap',
  };
  hooks.onResult?.(result, 'setup');
  const run: ValidationRun = {
    passed: true,
    results: [result],
    tolerated: [],
    warnings: sandbox.mode === 'none' ? [unsandboxedWarning(sandbox.disabledBy)] : [],
    blocked: [],
    setupCache: hit,
  };
  return run;
}

export async function cachedSetup(
  ws: Workspace,
  config: Pick<RepoConfig, 'setup'>,
  hooks: CommandHooks,
  io: CachedSetupIo,
): Promise<ValidationRun> {
  const maxMb = io.sandbox.setupCacheMaxMb ?? DEFAULT_SETUP_CACHE_MB;
  if (maxMb <= 0) return io.runSetup();
  const log = io.options.logger;
  const cache = openSetupCache({
    workdir: ws.workdir,
    repo: ws.repo,
    worktree: ws.worktree,
    gitDir: ws.gitDir,
    jobDir: ws.jobDir,
    homeDir: ws.homeDir,
    setup: config.setup,
    sandbox: io.sandbox,
    maxBytes: maxMb * 1024 * 1024,
    ...(io.options.baseEnv ? { baseEnv: io.options.baseEnv } : {}),
  });
  const key = await cache.key().catch(() => undefined);
  // The key the next setup in this job will look up: the stored entry's (a build is keyed by
  // the tree too), else the one asked now.
  const markDone = (done = key): Promise<void> =>
    done ? writeFile(setupDoneFile(ws.jobDir), done).catch(() => undefined) : Promise.resolve();
  if (key && (await readFile(setupDoneFile(ws.jobDir), 'utf8').catch(() => '')) === key) {
    const same: SetupCacheOutcome = {
      status: 'hit',
      key,
      files: 0,
      bytes: 0,
      ms: 0,
      mode: linkModeFor(io.sandbox),
    };
    return restoredRun(same, io.sandbox, hooks, alreadySetUpLine(key));
  }
  const handed = key ? await takeFromEarlierStage(ws, key, io) : undefined;
  if (handed) {
    await markDone();
    return restoredRun(handed, io.sandbox, hooks, handedLine(handed));
  }
  const found = await cache.restore().catch((err: unknown) => {
    log?.warn({ err: String(err) }, 'setup cache unreadable; running setup');
    return undefined;
  });
  if (found?.status === 'hit') {
    log?.info({ setupCache: found }, restoredLine(found));
    await markDone();
    return restoredRun(found, io.sandbox, hooks);
  }
  const run = await io.runSetup();
  if (!run.passed) {
    // A setup that failed: its key's entry must not outlive it. One cut short (the run is
    // ending) proves nothing either way, and stores nothing.
    if (run.failed) await cache.drop().catch(() => undefined);
    return found ? { ...run, setupCache: found } : run;
  }
  const stored = await cache.store().catch((err: unknown): SetupCacheOutcome | undefined => {
    log?.warn({ err: String(err) }, 'setup result not cached');
    return undefined;
  });
  await markDone(stored?.status === 'stored' ? stored.key : key);
  if (stored)
    log?.info({ setupCache: stored, miss: found?.reason }, `setup cache ${stored.status}`);
  return stored ? { ...run, setupCache: stored } : run;
}

/** What an earlier stage of the run handed to this job for `key`, as a setup outcome. */
async function takeFromEarlierStage(
  ws: Workspace,
  key: string,
  io: CachedSetupIo,
): Promise<SetupCacheOutcome | undefined> {
  const log = io.options.logger;
  const taken = await takeHandOff(ws, key).catch((err: unknown) => {
    log?.warn({ err: String(err) }, 'setup hand-off unusable; restoring from the cache');
    return undefined;
  });
  if (!taken?.taken) {
    if (taken && taken.reason !== 'nothing handed on')
      log?.info({ reason: taken.reason }, 'setup hand-off not taken');
    return undefined;
  }
  const outcome: SetupCacheOutcome = {
    status: 'handed',
    key,
    files: taken.paths,
    bytes: 0,
    ms: taken.ms,
    mode: linkModeFor(io.sandbox),
  };
  log?.info({ setupCache: outcome, relocated: taken.relocated }, handedLine(outcome));
  return outcome;
}
