/**
 * The bubblewrap command line for one repository command (pure: the caller has already decided
 * which paths exist and which are hidden). What the command gets:
 *
 * - its own PID, IPC, UTS and network namespaces: it sees only its own processes, and no network
 *   but a loopback of its own (`setup` reaches the allowlisting proxy through a socket bound in);
 * - the host's filesystem read-only, with the worker's secrets, its HOME, the workdir (mirrors,
 *   other jobs), `/run` sockets and `/var/tmp` behind empty tmpfs mounts, and only the job's
 *   worktree, a fresh HOME and a private `/tmp` writable;
 * - no privilege at all, even when the worker is root: a user namespace with an unprivileged
 *   uid/gid and `--disable-userns` (no nested namespaces), every capability dropped, and
 *   no-new-privileges (bubblewrap always sets it). As root, an outer bwrap builds the mounts, then
 *   `setpriv` drops to the unprivileged identity (uid, gid, groups, capability sets), and an inner
 *   unprivileged bwrap adds the user namespace — so the command is unprivileged on the host too,
 *   not root in disguise: root-owned files (the App's key, /etc/shadow) stay unreadable;
 * - resource limits (processes, file size, no core dumps) through `prlimit`.
 *
 * No `--new-session`: the command must stay in the process group we signal. It cannot reach a
 * terminal anyway (TIOCSTI): the runner starts it with `setsid` (Node's `detached`), so it has no
 * controlling terminal, its stdio are pipes, and `--dev` gives it a private devpts.
 */
import { dirname, posix } from 'node:path';
import type { SandboxIdentity } from './sandbox-policy.js';

export interface SandboxMount {
  /** Where it appears inside the sandbox. */
  dest: string;
  /** Host path (bind mounts); defaults to `dest`. */
  src?: string;
  kind: 'tmpfs' | 'bind' | 'ro-bind' | 'ro-bind-try';
}

export interface SandboxLayout {
  /** Directories bound read-write at the same path (worktree, the job's HOME). */
  writable: readonly string[];
  /** Directories hidden behind an empty tmpfs. */
  hidden: readonly string[];
  /** Paths bound read-only at the same path, on top (the git view, toolchains under HOME). */
  readOnly: readonly string[];
  /** Extra binds (per-repository caches, the proxy's socket directory). */
  binds?: readonly { src: string; dest: string; readOnly?: boolean }[];
  cwd: string;
  /** Root worker: run the command as this unprivileged identity. */
  runAs?: SandboxIdentity;
  limits: SandboxLimits;
  /** Size of the private /tmp in bytes. */
  tmpBytes: number;
}

export interface SandboxLimits {
  /** RLIMIT_NPROC: a fork bomb stops here. */
  processes: number;
  /** RLIMIT_FSIZE: the largest file a command may write. */
  fileBytes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  processes: 4096,
  fileBytes: 4 * 1024 ** 3,
};

export const DEFAULT_TMP_BYTES = 2 * 1024 ** 3;

function depth(path: string): number {
  return path === '/' ? 0 : path.split('/').length - 1;
}

function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir === '/' ? '/' : `${dir}/`);
}

/** Normalised absolute path without a trailing slash. */
function norm(path: string): string {
  const p = posix.normalize(path);
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
}

/**
 * Mount points that bubblewrap must create inside a tmpfs (below a hidden directory or the
 * private /tmp): created 0755 so that an unprivileged sandbox user can walk down to its worktree.
 */
function ancestorsToCreate(targets: readonly string[], tmpfsRoots: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const target of targets) {
    const root = tmpfsRoots
      .filter((r) => r !== target && isInside(target, r))
      .sort((a, b) => depth(b) - depth(a))[0];
    if (!root) continue;
    for (let dir = dirname(target); dir !== root && isInside(dir, root); dir = dirname(dir)) {
      dirs.add(dir);
    }
  }
  return [...dirs];
}

/** The mounts in the order bubblewrap must apply them: every parent before what it contains. */
export function orderMounts(layout: SandboxLayout): SandboxMount[] {
  const hidden = [...new Set(layout.hidden.map(norm))].filter(
    (dir) => dir !== '/tmp' && dir !== '/',
  );
  const mounts: SandboxMount[] = [
    ...hidden.map((dest) => ({ dest, kind: 'tmpfs' as const })),
    ...layout.writable.map((p) => ({ dest: norm(p), kind: 'bind' as const })),
    ...(layout.binds ?? []).map((b) => ({
      dest: norm(b.dest),
      src: b.src,
      kind: b.readOnly ? ('ro-bind' as const) : ('bind' as const),
    })),
    ...layout.readOnly.map((p) => ({ dest: norm(p), kind: 'ro-bind-try' as const })),
  ];
  // Stable sort by depth: a mount never lands below one that is applied after it.
  return mounts
    .map((m, i) => ({ m, i }))
    .sort((a, b) => depth(a.m.dest) - depth(b.m.dest) || a.i - b.i)
    .map(({ m }) => m);
}

/**
 * The mount arguments in order, with the mount points bubblewrap must create inside a tmpfs made
 * 0755 (`--perms 0755 --dir`) just before the first mount at their depth.
 */
function mountArgs(layout: SandboxLayout): string[] {
  const mounts = orderMounts(layout);
  const tmpfsRoots = ['/tmp', ...mounts.filter((m) => m.kind === 'tmpfs').map((m) => m.dest)];
  const dests = new Set(mounts.map((m) => m.dest));
  const pending = ancestorsToCreate(
    mounts.filter((m) => m.kind !== 'tmpfs').map((m) => m.dest),
    tmpfsRoots,
  )
    .filter((dir) => !dests.has(dir))
    .sort((a, b) => depth(a) - depth(b));
  const args: string[] = [];
  const emitDirsUpTo = (limit: number): void => {
    while (pending.length > 0 && depth(pending[0]!) < limit) {
      args.push('--perms', '0755', '--dir', pending.shift()!);
    }
  };
  for (const mount of mounts) {
    emitDirsUpTo(depth(mount.dest));
    if (mount.kind === 'tmpfs') args.push('--perms', '0755', '--tmpfs', mount.dest);
    else args.push(`--${mount.kind}`, mount.src ?? mount.dest, mount.dest);
  }
  emitDirsUpTo(Number.POSITIVE_INFINITY);
  return args;
}

/** The namespaces, the read-only host, a private /dev, /proc and /tmp (after `bwrapPath`). */
function namespaceArgs(tmpBytes: number): string[] {
  return [
    '--die-with-parent',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-net',
    '--unshare-cgroup-try',
    '--hostname',
    'autofix-sandbox',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--perms',
    '1777',
    '--size',
    String(tmpBytes),
    '--tmpfs',
    '/tmp',
  ];
}

/** As root, inside the outer bwrap: drop to `runAs`, then an unprivileged bwrap for the userns. */
function dropPrivilegeArgv(
  bwrapPath: string,
  runAs: SandboxIdentity,
  cwd: string,
  command: readonly string[],
): string[] {
  const { uid, gid } = runAs;
  return [
    'setpriv',
    `--reuid=${uid}`,
    `--regid=${gid}`,
    '--clear-groups',
    '--inh-caps=-all',
    '--bounding-set=-all',
    '--no-new-privs',
    '--',
    bwrapPath,
    '--die-with-parent',
    '--unshare-user',
    '--disable-userns',
    '--uid',
    String(uid),
    '--gid',
    String(gid),
    '--cap-drop',
    'ALL',
    '--bind',
    '/',
    '/',
    '--dev-bind',
    '/dev',
    '/dev',
    '--chdir',
    cwd,
    '--',
    ...command,
  ];
}

export function bwrapArgv(
  bwrapPath: string,
  layout: SandboxLayout,
  command: readonly string[],
): string[] {
  const sandbox = [...namespaceArgs(layout.tmpBytes), ...mountArgs(layout)];
  const limits = [
    'prlimit',
    `--nproc=${layout.limits.processes}`,
    `--fsize=${layout.limits.fileBytes}`,
    '--core=0',
    '--',
  ];
  if (!layout.runAs) {
    // Not root: bubblewrap itself runs unprivileged and makes the user namespace.
    return [
      ...limits,
      bwrapPath,
      '--unshare-user',
      '--disable-userns',
      '--cap-drop',
      'ALL',
      ...sandbox,
      '--chdir',
      layout.cwd,
      '--',
      ...command,
    ];
  }
  return [
    ...limits,
    bwrapPath,
    ...sandbox,
    '--chdir',
    layout.cwd,
    '--',
    ...dropPrivilegeArgv(bwrapPath, layout.runAs, layout.cwd, command),
  ];
}
