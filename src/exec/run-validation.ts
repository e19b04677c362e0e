/**
 * The repository's own checks: `setup` commands (e.g. `npm ci`: allowlisted hosts
 * through the egress proxy, with the repository's package caches), then `validate` commands (no
 * network at all), in order, stopping at the first failure. Every command line is split before
 * anything runs, so a config mistake fails fast.
 */
import type { RepoConfig } from '../config/repo-config.js';
import type { Logger } from '../logger.js';
import type { EgressReport } from './egress/egress-proxy.js';
import { runCommand, type ExecResult, type RunCommandOptions } from './run-command.js';
import { unsandboxedWarning, type SandboxPolicy } from './sandbox-policy.js';
import type { SetupCacheOutcome } from './setup-cache/setup-cache.js';
import { splitCommand } from './split-command.js';
import { missingToolNote } from './toolchains/python-project.js';
import { repoEnvironment, type RepoEnvironment } from './toolchains/repo-environment.js';

export type ValidationPhase = 'setup' | 'validate';

export interface ValidationOptions {
  /** The operator's sandbox; the repository's `sandbox: bwrap` is applied by the caller. */
  sandbox: SandboxPolicy;
  /** Writable binds for `setup` only (the repository's package caches) and their variables. */
  setupCache?: { binds: readonly { src: string; dest: string }[]; env: Record<string, string> };
  /**
   * The same caches for `validate` (and the baseline): read-only, with offline variables, beside
   * the job's own writable build caches. Asked for once, after this run's `setup` commands: what
   * they made is there to bind.
   */
  validateCache?: () => ValidateCache;
  signal?: AbortSignal;
  redact?: (text: string) => string;
  baseEnv?: NodeJS.ProcessEnv;
  home?: string;
  tmpDir?: string;
  hiddenPaths?: readonly string[];
  readOnlyPaths?: readonly string[];
  maxOutputBytes?: number;
  killGraceMs?: number;
  bwrapPath?: string;
  logger?: Logger;
  /** Skip `setup` (a repair round whose dependencies are already installed). */
  skipSetup?: boolean;
  /** Called as each command starts (progress). */
  onStart?: (line: string, phase: ValidationPhase) => void;
  /** Called after each command, e.g. to write it to the run's artifacts. */
  onResult?: (result: ExecResult, phase: ValidationPhase) => void;
  /**
   * A failed `validate` command this returns a note for is tolerated (it already failed on the
   * base commit): the run records it and goes on to the next command. `setup` never is.
   */
  tolerate?: (result: ExecResult) => string | undefined;
}

export interface ValidateCache {
  binds: readonly { src: string; dest: string; readOnly?: boolean }[];
  env: Record<string, string>;
}

export interface ValidationRun {
  passed: boolean;
  /** Every command that ran, in order; the last one is the failure when `passed` is false. */
  results: ExecResult[];
  failed?: { phase: ValidationPhase; result: ExecResult };
  /** Failed `validate` commands that `tolerate` excused, with its note. */
  tolerated: { result: ExecResult; note: string }[];
  /** An unsandboxed run (the operator's choice) and the like, for the status comment and PR. */
  warnings: string[];
  /** Connections `setup` tried that the egress proxy refused, by host. */
  blocked: EgressReport['blocked'];
  /** What the setup cache did: restored instead of running setup, or stored what it made. */
  setupCache?: SetupCacheOutcome;
}

type ValidationConfig = Pick<
  RepoConfig,
  'setup' | 'validate' | 'env_passthrough' | 'command_timeout_seconds' | 'network_allow'
>;

/** Every command line split before anything runs: a config mistake fails fast. */
function planOf(
  config: ValidationConfig,
  skipSetup: boolean,
): { phase: ValidationPhase; line: string; argv: string[] }[] {
  return [
    ...(skipSetup ? [] : config.setup).map((line) => ({
      phase: 'setup' as const,
      line,
      argv: splitCommand(line),
    })),
    ...config.validate.map((line) => ({
      phase: 'validate' as const,
      line,
      argv: splitCommand(line),
    })),
  ];
}

export async function runValidation(
  config: ValidationConfig,
  worktree: string,
  options: ValidationOptions,
): Promise<ValidationRun> {
  const { skipSetup, onResult, onStart, tolerate, setupCache, validateCache, ...commandOptions } =
    options;
  const plan = planOf(config, skipSetup === true);

  const env =
    plan.length > 0 ? await environmentFor(config, worktree, commandOptions, onStart) : undefined;
  const base: Omit<RunCommandOptions, 'label'> = {
    worktree,
    timeoutMs: config.command_timeout_seconds * 1000,
    envPassthrough: config.env_passthrough.filter((n) => !env?.unset.includes(n)),
    ...commandOptions,
  };
  const results: ExecResult[] = [];
  const tolerated: ValidationRun['tolerated'] = [];
  // Every PR of an unsandboxed worker says so, commands or not.
  const warnings = new Set<string>([
    ...(options.sandbox.mode === 'none' ? [unsandboxedWarning(options.sandbox.disabledBy)] : []),
    ...(env?.warnings ?? []),
  ]);
  const blocked = new Map<string, EgressReport['blocked'][number]>();
  let validateView: ValidateCache | undefined;
  const done = (extra: Partial<ValidationRun> & { passed: boolean }): ValidationRun => {
    const refused = [...blocked.values()];
    return {
      results,
      warnings: [...warnings, ...(refused.length > 0 ? [blockedWarning(refused)] : [])],
      blocked: refused,
      tolerated,
      ...extra,
    };
  };
  const created = env?.created;
  if (created) onResult?.(created, 'setup');
  if (created && (!skipSetup || created.exit_code !== 0)) {
    // The venv is part of setup; a run without setup lists it only when it failed.
    results.push(created);
    if (created.exit_code !== 0 || created.timed_out)
      return done({ passed: false, failed: { phase: 'setup', result: created } });
  }
  for (const step of plan) {
    if (options.signal?.aborted) break;
    const setup = step.phase === 'setup';
    onStart?.(step.line, step.phase);
    const view = setup
      ? setupCache
      : validateCache
        ? (validateView ??= validateCache())
        : undefined;
    const result = withNote(
      await runCommand(step.argv, {
        ...base,
        label: step.line,
        ...(setup ? { egress: { allow: config.network_allow } } : {}),
        ...(view ? { binds: view.binds } : {}),
        env: { ...env?.env, ...view?.env },
      }),
      env?.python === true ? step.argv : undefined,
    );
    results.push(result);
    if (result.warning) warnings.add(result.warning);
    addBlocked(blocked, result);
    onResult?.(result, step.phase);
    if (result.exit_code !== 0 || result.timed_out) {
      const note = setup ? undefined : tolerate?.(result);
      if (note !== undefined) {
        tolerated.push({ result, note });
        continue;
      }
      return done({ passed: false, failed: { phase: step.phase, result } });
    }
  }
  return done({ passed: options.signal?.aborted !== true });
}

/** The repository's environment (its venv, made as a `setup` command when missing). */
function environmentFor(
  config: ValidationConfig,
  worktree: string,
  commandOptions: Omit<RunCommandOptions, 'worktree' | 'timeoutMs'>,
  onStart: ValidationOptions['onStart'],
): Promise<RepoEnvironment> {
  return repoEnvironment(worktree, {
    baseEnv: commandOptions.baseEnv ?? process.env,
    run: (argv, label, env) => {
      onStart?.(label, 'setup');
      return runCommand(argv, {
        ...commandOptions,
        worktree,
        label,
        timeoutMs: config.command_timeout_seconds * 1000,
        envPassthrough: config.env_passthrough,
        env,
      });
    },
  });
}

function addBlocked(
  blocked: Map<string, EgressReport['blocked'][number]>,
  result: ExecResult,
): void {
  for (const b of result.egress?.blocked ?? []) {
    const key = `${b.host}:${b.port}`;
    const seen = blocked.get(key);
    blocked.set(key, seen ? { ...seen, count: seen.count + b.count } : b);
  }
}

/** A failed command in a Python repository whose tool is not in its venv says what to do. */
function withNote(result: ExecResult, argv: readonly string[] | undefined): ExecResult {
  const note = argv ? missingToolNote(argv, result) : undefined;
  if (!note) return result;
  return { ...result, stderr: `${result.stderr}${result.stderr ? '\n' : ''}[autofix: ${note}]` };
}

/** One line for the status comment, the PR and the CLI report: which hosts setup was refused. */
export function blockedWarning(blocked: EgressReport['blocked']): string {
  const hosts = blocked
    .slice(0, 20)
    .map((b) => `${b.host}:${b.port} (${b.reason}${b.count > 1 ? `, ${b.count}×` : ''})`);
  const more = blocked.length > 20 ? ` and ${blocked.length - 20} more` : '';
  return (
    `Setup commands tried to reach hosts off the network allowlist, and were refused: ` +
    `${hosts.join(', ')}${more}. If the repository needs one, add it to \`network_allow\` in ` +
    '`.github/autofix.yml`.'
  );
}
