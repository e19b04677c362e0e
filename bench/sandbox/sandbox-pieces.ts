/**
 * The parts of one sandboxed command, each on its own, so a bench row can say where the time of
 * `runCommand` goes: the chown hand-over, the bubblewrap chain, the egress proxy and the bridge.
 * Everything here calls the real modules of src/exec/ with the arguments the runner gives them.
 */
import { runCommand } from '../../src/exec/run-command.js';
import { bwrapArgv, DEFAULT_LIMITS, DEFAULT_TMP_BYTES } from '../../src/exec/bwrap-args.js';
import { bridgeArgv } from '../../src/exec/egress/bridge-source.js';
import { handOver, takeBack } from '../../src/exec/hand-over.js';
import { sandboxFilesystem } from '../../src/exec/sandbox-filesystem.js';
import type { SandboxPolicy } from '../../src/exec/sandbox-policy.js';
import { openSetupNetwork } from '../../src/exec/setup-network.js';
import { runProcess } from './run-process.js';

export interface CommandDirs {
  worktree: string;
  home: string;
}

/** One command through the real runner; rejects unless it exits 0. */
export async function runnerCommand(
  argv: readonly string[],
  dirs: CommandDirs,
  sandbox: SandboxPolicy,
  egress: boolean,
): Promise<void> {
  const result = await runCommand(argv, {
    worktree: dirs.worktree,
    home: dirs.home,
    timeoutMs: 120_000,
    sandbox,
    ...(egress ? { egress: { allow: [] } } : {}),
  });
  if (result.exit_code !== 0)
    throw new Error(`${result.command} exited ${result.exit_code}: ${result.stderr.slice(-2000)}`);
}

/**
 * What the runner does around a command as root: the paths (worktree, HOME, setup's caches) to
 * the sandbox user and back.
 */
export async function chownRoundTrip(
  paths: readonly string[],
  policy: SandboxPolicy,
): Promise<void> {
  if (!policy.runAs) return;
  await handOver(paths, policy.runAs);
  await takeBack(paths, policy.runAs);
}

/** Only the walk: take-back of a tree that is root's already changes nothing. */
export async function chownWalkOnly(
  paths: readonly string[],
  policy: SandboxPolicy,
): Promise<void> {
  if (policy.runAs) await takeBack(paths, policy.runAs);
}

/**
 * The bubblewrap command line the runner would spawn, without the runner (no hand-over, no
 * supervision). `chain: false` drops the identity: one bwrap that makes its own user namespace,
 * which is what a non-root worker runs. The directories must be readable by the sandbox user.
 */
export function rawBwrapArgv(
  argv: readonly string[],
  dirs: CommandDirs,
  policy: SandboxPolicy,
  chain: boolean,
): string[] {
  const fs = sandboxFilesystem({
    hidden: policy.hidden,
    path: process.env.PATH,
    execPath: process.execPath,
  });
  return bwrapArgv(
    policy.bwrapPath ?? 'bwrap',
    {
      writable: [dirs.worktree, dirs.home],
      hidden: fs.hidden,
      readOnly: fs.readOnly,
      binds: fs.masked.map((path) => ({ src: '/dev/null', dest: path, readOnly: true })),
      cwd: dirs.worktree,
      limits: DEFAULT_LIMITS,
      tmpBytes: DEFAULT_TMP_BYTES,
      ...(chain && policy.runAs ? { runAs: policy.runAs } : {}),
    },
    argv,
  );
}

/**
 * The runner's environment for a command, as far as start-up cost goes; not ours:
 * NODE_EXTRA_CA_CERTS alone adds ~60 ms to every node start.
 */
export const PLAIN_ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

export function rawBwrap(
  argv: readonly string[],
  dirs: CommandDirs,
  policy: SandboxPolicy,
  chain: boolean,
): Promise<void> {
  const args = rawBwrapArgv(argv, dirs, policy, chain);
  return runProcess(args[0]!, args.slice(1), { cwd: dirs.worktree, env: PLAIN_ENV });
}

/** The egress proxy for one setup command: started, socket handed to the sandbox user, closed. */
export async function proxyOpenClose(policy: SandboxPolicy): Promise<void> {
  const network = await openSetupNetwork({ policy, allow: [] });
  await network.close();
}

/** The in-sandbox bridge on the host: node starts, listens, runs the command, exits. */
export function bridgeOnly(argv: readonly string[], port: number): Promise<void> {
  // The socket is only dialled when a client connects, and nothing does here.
  const args = bridgeArgv(process.execPath, '/nonexistent/proxy.sock', port, argv);
  return runProcess(args[0]!, args.slice(1), { env: PLAIN_ENV });
}
