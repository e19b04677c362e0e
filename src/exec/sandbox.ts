/**
 * Is the sandbox really there? No silent fallback (issue #11): when bubblewrap cannot give a
 * command the isolation bwrap-args.ts describes, nothing of the repository runs. `serve`,
 * `worker` and `autofix run` run `sandboxSelfTest` at start and refuse to start with the fix in
 * the message; every run checks again (once per process) before its first command and fails with
 * `SANDBOX_UNAVAILABLE`.
 *
 * The self-test is a real command through the real runner, checked from inside: not root, no
 * capability, no-new-privileges, the worktree writable, the root file system read-only, no
 * nested user namespaces.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AutofixError } from '../errors.js';
import { readFileSync } from 'node:fs';
import type { SandboxPolicy } from './sandbox-policy.js';

/** Set after each successful check; the runner consults it before every command. */
const verified = new Map<string, Promise<void>>();

function key(policy: SandboxPolicy): string {
  return `${policy.bwrapPath ?? 'bwrap'}:${policy.runAs ? `${policy.runAs.uid}:${policy.runAs.gid}` : 'self'}`;
}

/** Forgets earlier checks (tests; after installing bubblewrap at run time). */
export function resetSandboxProbe(): void {
  verified.clear();
}

const OK = 'autofix-sandbox-ok';

/** Each line prints a word the check below looks for; nothing here needs more than sh and grep. */
const PROBE_SCRIPT = [
  'set -u',
  '[ "$(id -u)" != 0 ] && echo not-root',
  "grep -Eq '^CapEff:[[:space:]]*0+$' /proc/self/status && echo no-caps",
  "grep -Eq '^CapBnd:[[:space:]]*0+$' /proc/self/status && echo no-bounding-caps",
  "grep -Eq '^NoNewPrivs:[[:space:]]*1$' /proc/self/status && echo no-new-privs",
  'echo x > probe-file && echo worktree-writable',
  '( : > /autofix-probe ) 2>/dev/null || echo root-read-only',
  `echo ${OK}`,
].join('\n');

const EXPECTED = [
  'not-root',
  'no-caps',
  'no-bounding-caps',
  'no-new-privs',
  'worktree-writable',
  'root-read-only',
];

const CONTAINERS = 'README, "Sandbox in containers"';

/** What bubblewrap says when something stops it, and what to do about each. */
const KNOWN_PROBLEMS: { said: RegExp; fix: string }[] = [
  {
    said: /ENOENT|not found|No such file/i,
    fix: 'install bubblewrap ≥ 0.8, util-linux and coreutils (Debian/Ubuntu: `apt-get install bubblewrap util-linux coreutils`)',
  },
  {
    said: /No permissions to create new namespace|Operation not permitted.*(clone|unshare)|Creating new namespace failed/i,
    fix:
      'allow unprivileged user namespaces: `sysctl -w kernel.unprivileged_userns_clone=1` (Debian), ' +
      '`sysctl -w user.max_user_namespaces=15000`; in a container, the seccomp profile ' +
      `deploy/seccomp-sandbox.json (${CONTAINERS})`,
  },
  {
    said: /Can't mount proc|max_user_namespaces: Read-only file system/i,
    fix: `let the container mount a fresh /proc: \`systempaths=unconfined\` in Docker, \`procMount: Unmasked\` in Kubernetes (${CONTAINERS})`,
  },
  {
    said: /Failed to make \/ slave|apparmor/i,
    fix: `relax AppArmor for the worker: \`apparmor=unconfined\` or the profile in deploy/README.md (${CONTAINERS})`,
  },
  {
    said: /setting up uid map: Permission denied|uid map/i,
    fix:
      'the host restricts unprivileged user namespaces: on Ubuntu ≥ 23.10 ' +
      '`sysctl -w kernel.apparmor_restrict_unprivileged_userns=0` or an AppArmor profile for bwrap',
  },
  { said: /protected_hardlinks/, fix: '`sysctl -w fs.protected_hardlinks=1`' },
];

/** What to do about a failed self-test, from what bubblewrap said. */
export function sandboxFix(problem: string, optOut: string): string {
  const fixes = KNOWN_PROBLEMS.filter((p) => p.said.test(problem)).map((p) => p.fix);
  if (fixes.length === 0) fixes.push('check that `bwrap --version` runs on this machine');
  return `Fix: ${fixes.join('; or ')}. Or run repository code without a sandbox (not recommended): ${optOut}.`;
}

/** The kernel refuses an unprivileged user's hard links to files it does not own. */
function hardlinkProblem(policy: SandboxPolicy): string | null {
  if (!policy.runAs) return null;
  try {
    if (readFileSync('/proc/sys/fs/protected_hardlinks', 'utf8').trim() === '1') return null;
  } catch {
    return null; // not Linux /proc: bubblewrap would not run either
  }
  return 'fs.protected_hardlinks is off: sandboxed code could hard-link files it does not own into its worktree';
}

export type SandboxRunner = (
  argv: string[],
  worktree: string,
) => Promise<{ exit_code: number | null; stdout: string; stderr: string }>;

/**
 * Runs the probe through `run` (the real runner, bound to the policy) in a scratch directory.
 * Resolves when the sandbox holds; otherwise rejects with `SANDBOX_UNAVAILABLE`, the reason and
 * the fix.
 */
export async function sandboxSelfTest(
  policy: SandboxPolicy,
  run: SandboxRunner,
  optOut = 'AUTOFIX_SANDBOX=none',
): Promise<void> {
  if (policy.mode === 'none') return;
  const links = hardlinkProblem(policy);
  if (links) throw unavailable(links, optOut);
  const dir = await mkdtemp(join(tmpdir(), 'autofix-sandbox-test-'));
  try {
    let result: { exit_code: number | null; stdout: string; stderr: string };
    try {
      result = await run(['sh', '-c', PROBE_SCRIPT], dir);
    } catch (err) {
      throw unavailable((err as Error).message, optOut);
    }
    const seen = new Set(result.stdout.split('\n'));
    const missing = EXPECTED.filter((word) => !seen.has(word));
    if (result.exit_code !== 0 || !seen.has(OK) || missing.length > 0) {
      const said = `${result.stderr}\n${result.stdout}`.trim().split('\n').slice(0, 5).join(' | ');
      const why =
        missing.length > 0 && seen.has(OK)
          ? `the sandboxed command was not isolated (failed checks: ${missing.join(', ')})`
          : `bubblewrap could not start a command (exit ${result.exit_code ?? 'none'}): ${said}`;
      throw unavailable(why, optOut);
    }
  } finally {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

function unavailable(problem: string, optOut: string): AutofixError {
  return new AutofixError(
    'SANDBOX_UNAVAILABLE',
    `The sandbox for repository commands does not work on this worker: ${problem}. ${sandboxFix(problem, optOut)}`,
    { details: { problem }, recoverable: false },
  );
}

/** The self-test once per process and policy; later calls share the first result. */
export function ensureSandbox(
  policy: SandboxPolicy,
  run: SandboxRunner,
  optOut?: string,
): Promise<void> {
  if (policy.mode === 'none') return Promise.resolve();
  const k = key(policy);
  let pending = verified.get(k);
  if (!pending) {
    pending = sandboxSelfTest(policy, run, optOut);
    verified.set(k, pending);
    // A failure is not cached forever: the operator may fix the machine while we run.
    pending.catch(() => verified.delete(k));
  }
  return pending;
}
