/**
 * The repository's own checks (seed 003 §4): `setup` commands (network allowed, e.g. `npm ci`),
 * then `validate` commands (no network under the sandbox), in order, stopping at the first
 * failure. Every command line is split before anything runs, so a config mistake fails fast.
 */
import type { RepoConfig } from '../config/repo-config.js';
import type { Logger } from '../logger.js';
import { runCommand, type ExecResult, type RunCommandOptions } from './run-command.js';
import { splitCommand } from './split-command.js';

export type ValidationPhase = 'setup' | 'validate';

export interface ValidationOptions {
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
  /** Called after each command, e.g. to write it to the run's artifacts. */
  onResult?: (result: ExecResult, phase: ValidationPhase) => void;
}

export interface ValidationRun {
  passed: boolean;
  /** Every command that ran, in order; the last one is the failure when `passed` is false. */
  results: ExecResult[];
  failed?: { phase: ValidationPhase; result: ExecResult };
  /** Sandbox fallbacks and the like, for the status comment and the PR body. */
  warnings: string[];
}

type ValidationConfig = Pick<
  RepoConfig,
  'setup' | 'validate' | 'sandbox' | 'env_passthrough' | 'command_timeout_seconds'
>;

export async function runValidation(
  config: ValidationConfig,
  worktree: string,
  options: ValidationOptions = {},
): Promise<ValidationRun> {
  const { skipSetup, onResult, ...commandOptions } = options;
  const plan: { phase: ValidationPhase; line: string; argv: string[] }[] = [
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

  const base: Omit<RunCommandOptions, 'network' | 'label'> = {
    worktree,
    timeoutMs: config.command_timeout_seconds * 1000,
    sandbox: config.sandbox,
    envPassthrough: config.env_passthrough,
    ...commandOptions,
  };
  const results: ExecResult[] = [];
  const warnings = new Set<string>();
  for (const step of plan) {
    if (options.signal?.aborted) break;
    const result = await runCommand(step.argv, {
      ...base,
      label: step.line,
      network: step.phase === 'setup',
    });
    results.push(result);
    if (result.warning) warnings.add(result.warning);
    onResult?.(result, step.phase);
    if (result.exit_code !== 0 || result.timed_out) {
      return {
        passed: false,
        results,
        failed: { phase: step.phase, result },
        warnings: [...warnings],
      };
    }
  }
  const aborted = options.signal?.aborted === true;
  return { passed: !aborted, results, warnings: [...warnings] };
}
