/**
 * Runs one repository command (docs/SECURITY.md, rule 4): an argv without a shell, inside the
 * worktree, with an allowlisted environment, in its own process group that is ended completely on
 * timeout, abort or exit, with each output stream capped and every secret redacted — and, unless
 * the operator turned it off, inside the sandbox of bwrap-args.ts, which must prove itself first
 * (sandbox.ts). `setup` commands reach the network only through the allowlisting proxy
 * (setup-network.ts); every other command has no network at all.
 */
import { stripVTControlCharacters } from 'node:util';
import { realpathSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import type { CommandResult } from '../contracts.js';
import { AutofixError } from '../errors.js';
import type { Logger } from '../logger.js';
import { bwrapArgv, DEFAULT_LIMITS, DEFAULT_TMP_BYTES, type SandboxLimits } from './bwrap-args.js';
import { createRedactor } from '../artifacts/redact.js';
import { buildCommandEnv, passthroughValues } from './command-env.js';
import type { EgressReport } from './egress/egress-proxy.js';
import { assertOwnDirectory, handOver, keepHandedOver, takeBack } from './hand-over.js';
import { ensureSandbox, type SandboxRunner } from './sandbox.js';
import { sandboxFilesystem, type SandboxFilesystem } from './sandbox-filesystem.js';
import { unsandboxedWarning, type SandboxPolicy } from './sandbox-policy.js';
import { openSetupNetwork, type SetupNetwork } from './setup-network.js';
import { formatCommand } from './split-command.js';
import { superviseProcess } from './supervise-process.js';
import { packageMounts, workerPackages } from './toolchains/worker-packages.js';

export interface RunCommandOptions {
  /** Root of the job's checkout: the command's cwd must be inside it; writable in the sandbox. */
  worktree: string;
  /** Working directory (default: the worktree). */
  cwd?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** The operator's sandbox (mode, identity, hidden paths, network rules). */
  sandbox: SandboxPolicy;
  /**
   * Hosts a `setup` command may reach through the proxy (defaults + the repository's
   * `network_allow`). Absent: no network at all.
   */
  egress?: { allow: readonly string[] };
  /** The repo config's `env_passthrough`. */
  envPassthrough?: readonly string[];
  /** Where allowlisted variables are read from; the worker's environment by default. */
  baseEnv?: NodeJS.ProcessEnv;
  /** A writable per-job HOME, fresh and empty; bound writable in the sandbox. */
  home?: string;
  /** TMPDIR when not sandboxed (the sandbox has its own private /tmp). */
  tmpDir?: string;
  /** Paths the sandbox hides behind an empty tmpfs, on top of the policy's. */
  hiddenPaths?: readonly string[];
  /** Paths inside hidden ones that stay readable (the job's git view). */
  readOnlyPaths?: readonly string[];
  /** Extra binds: per-repository package caches, writable for setup, read-only for validate. */
  binds?: readonly { src: string; dest: string; readOnly?: boolean }[];
  /** Extra variables for the command (cache locations). */
  env?: Record<string, string>;
  /** Redacts secrets from the command line and both output streams. */
  redact?: (text: string) => string;
  /** Cap per output stream in bytes (head and tail are kept). Default 512 KiB. */
  maxOutputBytes?: number;
  /** Time between SIGTERM and SIGKILL. Default 3 s. */
  killGraceMs?: number;
  /** The text shown as `command` in the result (default: the argv, quoted). */
  label?: string;
  /** Resource limits inside the sandbox (default: bwrap-args.ts `DEFAULT_LIMITS`). */
  limits?: Partial<SandboxLimits>;
  logger?: Logger;
}

export interface ExecResult extends CommandResult {
  sandboxed: boolean;
  /** Set when the command ran without a sandbox (the operator's `AUTOFIX_SANDBOX=none`). */
  warning?: string;
  /** What a `setup` command tried to reach: allowed and blocked hosts. */
  egress?: EgressReport;
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

interface Prepared {
  file: string;
  args: string[];
  env: Record<string, string>;
  network?: SetupNetwork;
  /** Ends what preparing started: the proxy, and the files handed to the sandbox user. */
  release(): Promise<void>;
}

/** What of the host the command sees: the worker's own packages are hidden too. */
async function sandboxView(
  policy: SandboxPolicy,
  options: RunCommandOptions,
  baseEnv: NodeJS.ProcessEnv,
): Promise<{ fs: SandboxFilesystem; packages: { hidden: string[]; readOnly: string[] } }> {
  const fs = sandboxFilesystem({
    hidden: [...policy.hidden, ...(options.hiddenPaths ?? [])],
    path: baseEnv.PATH,
    execPath: process.execPath,
  });
  // The worker's own site-packages and global node_modules: never importable by the repository.
  const packages = packageMounts({
    packages: await workerPackages(baseEnv),
    hidden: fs.hidden,
    readOnly: fs.readOnly,
  });
  return { fs, packages };
}

/** The sandboxed command line: mounts, identity, and for setup the proxy and its bridge. */
async function prepareSandboxed(
  argv: readonly string[],
  root: string,
  dir: string,
  options: RunCommandOptions,
): Promise<Prepared> {
  const policy = options.sandbox;
  const baseEnv = options.baseEnv ?? process.env;
  const { fs, packages } = await sandboxView(policy, options, baseEnv);
  const writable = options.home ? [root, options.home] : [root];
  const caches = (options.binds ?? []).map((b) => b.src);
  // Writable in the sandbox (and, as root, handed over): never a shared directory like /tmp.
  for (const path of [...writable, ...caches]) assertOwnDirectory(path);
  const runAs = policy.runAs;
  // The worktree and HOME go to the sandbox user for the command and come back after it; the
  // caches only ever hold what sandboxed commands wrote, so they stay the sandbox user's.
  const owned = writable;
  if (runAs) await Promise.all([handOver(owned, runAs), keepHandedOver(caches, runAs)]);
  let network: SetupNetwork | undefined;
  const release = async (): Promise<void> => {
    await network?.close();
    if (runAs) await takeBack(owned, runAs);
  };
  try {
    network = options.egress
      ? await openSetupNetwork({
          policy,
          allow: options.egress.allow,
          ...(options.logger ? { logger: options.logger } : {}),
        })
      : undefined;
    const command = network ? network.wrap(argv) : [...argv];
    const overrides: Record<string, string> = {
      ...fs.env,
      ...options.env,
      ...network?.env,
      TMPDIR: '/tmp',
    };
    if (options.home) overrides.HOME = options.home;
    // The sandbox user does not own the job's git directory (root does): let git in tests work.
    if (policy.runAs) Object.assign(overrides, safeDirectoryEnv());
    const args = bwrapArgv(
      policy.bwrapPath ?? 'bwrap',
      {
        writable,
        hidden: [...fs.hidden, ...packages.hidden],
        readOnly: [...fs.readOnly, ...packages.readOnly, ...(options.readOnlyPaths ?? [])],
        binds: [
          ...(options.binds ?? []),
          ...fs.masked.map((path) => ({ src: '/dev/null', dest: path, readOnly: true })),
          ...(network ? [network.bind] : []),
        ],
        cwd: dir,
        limits: { ...DEFAULT_LIMITS, ...options.limits },
        tmpBytes: DEFAULT_TMP_BYTES,
        ...(policy.runAs ? { runAs: policy.runAs } : {}),
      },
      command,
    );
    const env = buildCommandEnv({
      baseEnv,
      passthrough: options.envPassthrough,
      overrides,
    });
    return {
      file: args[0]!,
      args: args.slice(1),
      env,
      release,
      ...(network ? { network } : {}),
    };
  } catch (err) {
    await release();
    throw err;
  }
}

function safeDirectoryEnv(): Record<string, string> {
  return { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'safe.directory', GIT_CONFIG_VALUE_0: '*' };
}

export async function runCommand(
  argv: readonly string[],
  options: RunCommandOptions,
): Promise<ExecResult> {
  if (argv.length === 0)
    throw new AutofixError('INTERNAL', 'empty command', { recoverable: false });
  // Fail closed: nothing of the repository runs unless the sandbox proved itself.
  await checkSandbox(options.sandbox, options.baseEnv);
  return execute(argv, options);
}

/**
 * Proves (once per process; `serve`, `worker` and `autofix run` call it at start) that the
 * policy's sandbox works, with a probe through this very runner; rejects with
 * `SANDBOX_UNAVAILABLE`, the reason and the fix. `optOut` names how the user can turn the sandbox
 * off (`AUTOFIX_SANDBOX=none`, `--sandbox none`).
 */
export function checkSandbox(
  policy: SandboxPolicy,
  baseEnv?: NodeJS.ProcessEnv,
  optOut?: string,
): Promise<void> {
  const probe: SandboxRunner = (argv, worktree) =>
    execute(argv, {
      worktree,
      timeoutMs: 30_000,
      sandbox: policy,
      ...(baseEnv ? { baseEnv } : {}),
    });
  return ensureSandbox(policy, probe, optOut);
}

async function execute(argv: readonly string[], options: RunCommandOptions): Promise<ExecResult> {
  const passed = createRedactor(passthroughValues(options.envPassthrough, options.baseEnv));
  const redact = (text: string): string => passed(options.redact ? options.redact(text) : text);
  const label = redact(options.label ?? formatCommand(argv));
  const { root, dir } = insideWorktree(options.worktree, options.cwd ?? '.');
  const sandboxed = options.sandbox.mode === 'bwrap';

  let prepared: Prepared;
  if (sandboxed) {
    prepared = await prepareSandboxed(argv, root, dir, options);
  } else {
    const overrides: Record<string, string> = { ...options.env };
    if (options.home) overrides.HOME = options.home;
    if (options.tmpDir) overrides.TMPDIR = options.tmpDir;
    prepared = {
      file: argv[0]!,
      args: argv.slice(1),
      env: buildCommandEnv({
        baseEnv: options.baseEnv ?? process.env,
        passthrough: options.envPassthrough,
        overrides,
      }),
      release: () => Promise.resolve(),
    };
  }

  const log = options.logger?.child({ command: label, sandboxed });
  log?.debug({ cwd: dir }, 'command started');
  const started = performance.now();
  let outcome: Awaited<ReturnType<typeof superviseProcess>>;
  let duration_ms = 0;
  try {
    outcome = await superviseProcess(prepared.file, prepared.args, {
      cwd: dir,
      env: prepared.env,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      killGraceMs: options.killGraceMs ?? DEFAULT_GRACE_MS,
      maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT,
      logger: log,
    });
    // The command's own time: the hand-back below is ours.
    duration_ms = Math.round(performance.now() - started);
  } finally {
    // Every process of the command is gone here (its PID namespace died with it).
    await prepared.release();
  }
  const { stdout, stderr } = outcome;

  // bwrap reports a missing program as its own failure (exit 1); report it like a shell would.
  let code = outcome.code;
  if (sandboxed && code === 1 && /^bwrap: execvp [^\n]*No such file/m.test(stderr.toString()))
    code = 127;
  // Test runners colour their output: the escape codes would reach build logs, prompts, reports
  // and comments as noise (and could split a secret from the redactor), so they go first.
  let stderrText = redact(stripVTControlCharacters(stderr.toString('stderr')));
  if (outcome.spawnError) stderrText += (stderrText ? '\n' : '') + outcome.spawnError;
  if (outcome.timedOut)
    stderrText += `${stderrText ? '\n' : ''}[autofix: timed out after ${options.timeoutMs} ms]`;
  const egress = prepared.network?.report();
  const result: ExecResult = {
    command: label,
    exit_code: code,
    stdout: redact(stripVTControlCharacters(stdout.toString('stdout'))),
    stderr: stderrText,
    duration_ms,
    timed_out: outcome.timedOut,
    signal: outcome.signal,
    sandboxed,
    ...(sandboxed ? {} : { warning: unsandboxedWarning(options.sandbox.disabledBy) }),
    ...(egress ? { egress } : {}),
  };
  log?.info(
    { exit_code: result.exit_code, timed_out: result.timed_out, duration_ms },
    'command finished',
  );
  return result;
}
