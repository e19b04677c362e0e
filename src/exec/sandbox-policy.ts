/**
 * Who decides how repository code is isolated (issue #11; docs/SECURITY.md, rule 4): the operator.
 * The worker's policy is `bwrap` unless the operator typed `none` (`AUTOFIX_SANDBOX=none` for the
 * app, `--sandbox none` for the CLI); a repository's `.github/autofix.yml` can only ask for more
 * (`sandbox: bwrap` on a worker whose operator chose `none`), never for less.
 */

export type SandboxMode = 'bwrap' | 'none';

/** What a repository may write in `.github/autofix.yml`: `auto` = the operator's policy. */
export type RepoSandboxSetting = 'auto' | 'bwrap';

export interface SandboxIdentity {
  uid: number;
  gid: number;
}

/**
 * The operator's sandbox, fixed for the life of a process and passed down to every command.
 * Repository code runs as `runAs` when the worker is root (an unprivileged account that owns
 * nothing of the worker's), and as the worker's own user in its own user namespace otherwise.
 */
export interface SandboxPolicy {
  mode: SandboxMode;
  /** Set when the worker runs as root; commands then run as this unprivileged identity. */
  runAs?: SandboxIdentity;
  /** `AUTOFIX_NETWORK_ALLOW`: hosts `setup` may reach even on private addresses. */
  trustedHosts: readonly string[];
  /** The bot's own listeners (Redis, its HTTP port): never reachable from `setup`. */
  deny: readonly { host: string; port: number }[];
  /** Directories repository commands must not see (the worker's key, `.env`, workdir). */
  hidden: readonly string[];
  bwrapPath?: string;
  /** Who turned the sandbox off, for the warning every report carries (default: the operator). */
  disabledBy?: string;
  /**
   * `SETUP_CACHE_MAX_MB`: the bound on each repository's setup cache (exec/setup-cache/); 0 turns
   * it off. Absent: `DEFAULT_SETUP_CACHE_MB` (config/env.ts).
   */
  setupCacheMaxMb?: number;
}

/** `nobody`/`nogroup` on Debian and most distributions. */
export const DEFAULT_SANDBOX_IDENTITY: SandboxIdentity = { uid: 65534, gid: 65534 };

/** The identity repository code runs as: an unprivileged one when we are root, else our own. */
export function sandboxIdentityFor(
  currentUid: number | undefined,
  identity: SandboxIdentity = DEFAULT_SANDBOX_IDENTITY,
): SandboxIdentity | undefined {
  return currentUid === 0 ? identity : undefined;
}

/** The operator's policy as one repository gets it: `sandbox: bwrap` there can only add. */
export function withRepoSandbox(
  policy: SandboxPolicy,
  repository: RepoSandboxSetting | undefined,
): SandboxPolicy {
  return repository === 'bwrap' ? { ...policy, mode: 'bwrap' } : policy;
}

/** A policy with nothing but the mode (tests, local modes without secrets to hide). */
export function basicSandboxPolicy(
  mode: SandboxMode,
  extra: Partial<Omit<SandboxPolicy, 'mode'>> = {},
): SandboxPolicy {
  return {
    mode,
    trustedHosts: [],
    deny: [],
    hidden: [],
    ...(process.getuid?.() === 0 ? { runAs: DEFAULT_SANDBOX_IDENTITY } : {}),
    ...extra,
  };
}

/** Shown in the status comment and every PR when the operator turned the sandbox off. */
export const UNSANDBOXED_WARNING = unsandboxedWarning();

/** The warning every report of an unsandboxed run carries, naming who turned the sandbox off. */
export function unsandboxedWarning(
  disabledBy = 'the operator of this Autofix worker set AUTOFIX_SANDBOX=none',
): string {
  return (
    `Repository commands ran WITHOUT a sandbox: ${disabledBy}, so setup and validation could ` +
    'read and write whatever the worker can and reach any network address.'
  );
}
