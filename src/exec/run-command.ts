/**
 * Runs one repository command (DESIGN.md §5.4): an argv without a shell, inside the worktree,
 * with an allowlisted environment, in its own process group that is ended completely on timeout,
 * abort or exit, with each output stream capped and every secret redacted.
 */
import { realpathSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import type { CommandResult } from '../contracts.js';
import { AutofixError } from '../errors.js';
import type { Logger } from '../logger.js';
import { buildCommandEnv } from './command-env.js';
import { bwrapArgs, resolveSandbox, type SandboxMode } from './sandbox.js';
import { formatCommand } from './split-command.js';
import { superviseProcess } from './supervise-process.js';

export interface RunCommandOptions {
  /** Root of the job's checkout: the command's cwd must be inside it; writable in the sandbox. */
  worktree: string;
  /** Working directory (default: the worktree). */
  cwd?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  sandbox?: SandboxMode;
  /** Whether the command may use the network under bwrap (setup: yes, validate: no). */
  network?: boolean;
  /** The repo config's `env_passthrough`. */
  envPassthrough?: readonly string[];
  /** Where allowlisted variables are read from; the worker's environment by default. */
  baseEnv?: NodeJS.ProcessEnv;
  /** A writable per-job HOME (npm caches and the like); bound writable in the sandbox. */
  home?: string;
  /** TMPDIR when not sandboxed (the sandbox has its own private /tmp). */
  tmpDir?: string;
  /** Paths the sandbox hides behind an empty tmpfs. */
  hiddenPaths?: readonly string[];
  /** Paths inside hidden ones that stay readable (the worktree's git mirror). */
  readOnlyPaths?: readonly string[];
  /** Redacts secrets from the command line and both output streams. */
  redact?: (text: string) => string;
  /** Cap per output stream in bytes (head and tail are kept). Default 512 KiB. */
  maxOutputBytes?: number;
  /** Time between SIGTERM and SIGKILL. Default 3 s. */
  killGraceMs?: number;
  /** The text shown as `command` in the result (default: the argv, quoted). */
  label?: string;
  bwrapPath?: string;
  logger?: Logger;
}

export interface ExecResult extends CommandResult {
  sandboxed: boolean;
  /** Why the command ran without the sandbox it should have had (sandbox `auto`). */
  warning?: string;
}

const DEFAULT_MAX_OUTPUT = 512 * 1024;
const DEFAULT_GRACE_MS = 3000;

function insideWorktree(worktree: string, cwd: string): { root: string; dir: string } {
  let root: string;
  let dir: string;
  try {
    root = realpathSync(worktree);
    dir = realpathSync(resolve(worktree, cwd));
  } catch (err) {
    throw new AutofixError('INTERNAL', `command directory missing: ${(err as Error).message}`, {
      recoverable: false,
    });
  }
  const rel = relative(root, dir);
  if (rel === '..' || rel.startsWith(`..${sep}`) || resolve(root, rel) !== dir) {
    throw new AutofixError('INTERNAL', `command cwd ${dir} is outside the worktree ${root}`, {
      recoverable: false,
    });
  }
  return { root, dir };
}

export async function runCommand(
  argv: readonly string[],
  options: RunCommandOptions,
): Promise<ExecResult> {
  const redact = options.redact ?? ((s: string) => s);
  const label = redact(options.label ?? formatCommand(argv));
  if (argv.length === 0)
    throw new AutofixError('INTERNAL', 'empty command', { recoverable: false });
  const { root, dir } = insideWorktree(options.worktree, options.cwd ?? '.');
  const sandbox = await resolveSandbox(options.sandbox ?? 'auto', options.bwrapPath);
  const sandboxed = sandbox.kind === 'bwrap';

  const overrides: Record<string, string> = {};
  if (options.home) overrides.HOME = options.home;
  if (sandboxed) overrides.TMPDIR = '/tmp';
  else if (options.tmpDir) overrides.TMPDIR = options.tmpDir;
  const env = buildCommandEnv({
    baseEnv: options.baseEnv ?? process.env,
    passthrough: options.envPassthrough,
    overrides,
  });

  const [file, args] = sandboxed
    ? [
        options.bwrapPath ?? 'bwrap',
        [
          ...bwrapArgs({
            writable: options.home ? [root, options.home] : [root],
            hidden: options.hiddenPaths,
            readOnly: options.readOnlyPaths,
            cwd: dir,
            network: options.network ?? false,
          }),
          ...argv,
        ],
      ]
    : [argv[0]!, argv.slice(1)];

  const log = options.logger?.child({ command: label, sandboxed });
  log?.debug({ cwd: dir }, 'command started');
  const started = performance.now();
  const outcome = await superviseProcess(file, args, {
    cwd: dir,
    env,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    killGraceMs: options.killGraceMs ?? DEFAULT_GRACE_MS,
    maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT,
    logger: log,
  });
  const { stdout, stderr } = outcome;

  const duration_ms = Math.round(performance.now() - started);
  // bwrap reports a missing program as its own failure (exit 1); report it like a shell would.
  let code = outcome.code;
  if (sandboxed && code === 1 && /^bwrap: execvp [^\n]*No such file/.test(stderr.toString()))
    code = 127;
  let stderrText = redact(stderr.toString('stderr'));
  if (outcome.spawnError) stderrText += (stderrText ? '\n' : '') + outcome.spawnError;
  if (outcome.timedOut)
    stderrText += `${stderrText ? '\n' : ''}[autofix: timed out after ${options.timeoutMs} ms]`;
  const result: ExecResult = {
    command: label,
    exit_code: code,
    stdout: redact(stdout.toString('stdout')),
    stderr: stderrText,
    duration_ms,
    timed_out: outcome.timedOut,
    signal: outcome.signal,
    sandboxed,
    ...(sandbox.warning ? { warning: sandbox.warning } : {}),
  };
  log?.info(
    { exit_code: result.exit_code, timed_out: result.timed_out, duration_ms },
    'command finished',
  );
  return result;
}
