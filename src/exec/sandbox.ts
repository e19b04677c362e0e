/**
 * The bubblewrap sandbox for repository commands: the whole filesystem read-only, the worktree
 * (and a per-job HOME) writable, a private /tmp, its own PID namespace so nothing outlives the
 * command, and no network for `validate` commands. `auto` probes once per process whether bwrap
 * runs here and otherwise falls back to no sandbox with a warning that travels with every result.
 */
import { execFile } from 'node:child_process';
import { AutofixError } from '../errors.js';

export type SandboxMode = 'auto' | 'bwrap' | 'none';

export interface SandboxChoice {
  kind: 'bwrap' | 'none';
  /** Set when `auto` fell back to `none`: shown in the status comment and the PR body. */
  warning?: string;
}

export interface BwrapMounts {
  /** Bound read-write at the same path (the worktree, a per-job HOME). */
  writable: readonly string[];
  /** Hidden behind an empty tmpfs (e.g. the worker's key directory, other jobs' workdirs). */
  hidden?: readonly string[];
  /** Bound read-only, on top of hidden and writable ones (the job's mirror, the `.git` link). */
  readOnly?: readonly string[];
  /** Working directory inside the sandbox. */
  cwd: string;
  /** false → `--unshare-net`: only a loopback interface that nothing listens on. */
  network: boolean;
}

/**
 * No `--new-session`: the sandboxed processes must stay in the process group we signal. The
 * PID namespace (`--unshare-pid`) ends every process inside when the command ends, and
 * `--die-with-parent` ends the sandbox if the worker itself dies.
 */
export function bwrapArgs(mounts: BwrapMounts): string[] {
  const args = [
    '--die-with-parent',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    ...(mounts.network ? [] : ['--unshare-net']),
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
  ];
  for (const dir of mounts.hidden ?? []) args.push('--tmpfs', dir);
  // Later mounts go on top: writable paths below /tmp or a hidden dir stay visible, and
  // read-only paths inside a writable one (the worktree's `.git` link) stay read-only.
  for (const dir of mounts.writable) args.push('--bind', dir, dir);
  for (const dir of mounts.readOnly ?? []) args.push('--ro-bind', dir, dir);
  args.push('--chdir', mounts.cwd, '--');
  return args;
}

const probes = new Map<string, Promise<string | null>>();

/** Runs `bwrap … true` with the flags we use; resolves to null when it works, else why not. */
function probe(bwrapPath: string): Promise<string | null> {
  let pending = probes.get(bwrapPath);
  if (!pending) {
    pending = new Promise((resolve) => {
      const args = [...bwrapArgs({ writable: [], cwd: '/', network: false }), 'true'];
      execFile(bwrapPath, args, { timeout: 10_000 }, (err, _stdout, stderr) => {
        if (!err) resolve(null);
        else resolve((stderr.trim() || err.message).split('\n')[0] ?? err.message);
      });
    });
    probes.set(bwrapPath, pending);
  }
  return pending;
}

/** Forgets earlier probe results (tests; after installing bubblewrap at run time). */
export function resetSandboxProbe(): void {
  probes.clear();
}

export async function resolveSandbox(
  mode: SandboxMode,
  bwrapPath = 'bwrap',
): Promise<SandboxChoice> {
  if (mode === 'none') return { kind: 'none' };
  const problem = await probe(bwrapPath);
  if (problem === null) return { kind: 'bwrap' };
  if (mode === 'bwrap') {
    throw new AutofixError(
      'CONFIG_INVALID',
      `sandbox: bwrap is configured but bubblewrap does not run on this worker: ${problem}`,
      { details: { problem }, recoverable: false },
    );
  }
  return {
    kind: 'none',
    warning:
      `Repository commands ran without a sandbox (bubblewrap unavailable: ${problem}): ` +
      'validate commands had network access and the filesystem was not read-only.',
  };
}
