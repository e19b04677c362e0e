/**
 * When the worker is root, repository code runs as an unprivileged identity (sandbox-policy.ts),
 * which must be able to write its worktree, HOME and caches: ownership of what root created there
 * is handed over before each command, and taken back after it, so that outside a command every
 * file is root's again (the user's own project in the local modes stays theirs, and our git never
 * meets files it does not own).
 *
 * `chown -R -P -h`: symbolic links are changed themselves and never followed, so a link that an
 * earlier command planted in the worktree (`ln -s /etc/shadow x`) cannot make us give away the
 * file it points to. `--from` touches only files of the other side (cheap, and files owned by
 * anyone else stay as they are). Hard links to files outside are refused by the kernel to an
 * unprivileged user (`fs.protected_hardlinks`, checked by the sandbox self-test).
 *
 * A directory that is not a job's own (`/`, `/tmp`, a home directory, anything near the root) is
 * refused outright: handing `/tmp` over would give the sandbox user every file in it.
 */
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { AutofixError } from '../errors.js';
import { launch } from './launcher/launcher.js';
import type { SandboxIdentity } from './sandbox-policy.js';

const SHARED_DIRS = new Set([
  '/',
  '/tmp',
  '/var',
  '/var/tmp',
  '/var/lib',
  '/home',
  '/root',
  '/usr',
  '/etc',
  '/opt',
  '/srv',
  '/mnt',
  '/media',
  '/run',
  '/dev',
  '/proc',
  '/sys',
  '/boot',
  '/bin',
  '/sbin',
  '/lib',
  '/lib64',
]);

/** Refuses paths that are not a job's own directory. */
export function assertOwnDirectory(path: string): void {
  const abs = resolve(path);
  const depth = abs.split('/').filter(Boolean).length;
  if (SHARED_DIRS.has(abs) || abs === resolve(homedir()) || depth < 2) {
    throw new AutofixError(
      'INTERNAL',
      `refusing to hand ${abs} to the sandbox user: commands must run in a directory of their own (a job's worktree), not a shared one`,
      { recoverable: false },
    );
  }
}

async function chown(paths: readonly string[], from: string, to: string): Promise<void> {
  const failed = (why: string): AutofixError =>
    new AutofixError(
      'SANDBOX_UNAVAILABLE',
      `cannot change the owner of the job's files (${from} → ${to}): ${why}`,
      { recoverable: false },
    );
  const ran = await launch({
    file: 'chown',
    args: ['-R', '-P', '-h', `--from=${from}`, to, '--', ...paths],
    cwd: '/',
    env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' },
    timeoutMs: 120_000,
  }).catch((err: unknown) => {
    throw failed(err instanceof Error ? err.message : String(err));
  });
  if (ran.timedOut) throw failed('timed out after 120 s');
  if (ran.code !== 0)
    throw failed(ran.stderr.toString('utf8').trim() || `exit ${ran.code ?? ran.signal}`);
}

/** Root's files in `paths` become the sandbox user's. */
export function handOver(paths: readonly string[], to: SandboxIdentity): Promise<void> {
  if (paths.length === 0) return Promise.resolve();
  for (const path of paths) assertOwnDirectory(path);
  return chown(paths, '0', `${to.uid}:${to.gid}`);
}

/** …and back to root once the command has ended (every process of it is gone by then). */
export function takeBack(paths: readonly string[], from: SandboxIdentity): Promise<void> {
  if (paths.length === 0) return Promise.resolve();
  for (const path of paths) assertOwnDirectory(path);
  return chown(paths, String(from.uid), '0:0');
}

/**
 * Directories that only sandboxed commands ever write (the per-repository package caches): handed
 * over once, when root still owns their top, and never taken back — walking a cache that only
 * grows before and after every command would cost more than the command.
 */
export async function keepHandedOver(paths: readonly string[], to: SandboxIdentity): Promise<void> {
  const pending: string[] = [];
  for (const path of paths) {
    assertOwnDirectory(path);
    if ((await stat(path)).uid !== to.uid) pending.push(path);
  }
  await handOver(pending, to);
}
