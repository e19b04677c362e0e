/**
 * A lock that works across processes on one machine (several workers may share a workdir):
 * `mkdir` is atomic, so whoever creates the lock directory holds the lock. The holder writes
 * its pid and host into it and touches it while it works; a lock whose holder died (same host,
 * pid gone) or that nobody touched for `staleMs` is broken. Breaking renames the directory away
 * first, so two waiters cannot both remove the same stale lock.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { AutofixError } from '../errors.js';

export interface FileLockOptions {
  /** Give up waiting after this long (TIMEOUT). Default 10 minutes. */
  timeoutMs?: number;
  /** A lock not touched for this long is stale. Default 60 s (the holder touches it every staleMs/4). */
  staleMs?: number;
  pollMs?: number;
}

interface Owner {
  pid: number;
  host: string;
  token: string;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Whether process `pid` exists (EPERM: it does, under another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readOwner(lockDir: string): Promise<Owner | null> {
  try {
    return JSON.parse(await readFile(join(lockDir, 'owner.json'), 'utf8')) as Owner;
  } catch {
    return null;
  }
}

async function isStale(lockDir: string, staleMs: number): Promise<boolean> {
  let mtimeMs: number;
  try {
    mtimeMs = (await stat(lockDir)).mtimeMs;
  } catch {
    return false; // gone already: just retry mkdir
  }
  const owner = await readOwner(lockDir);
  if (owner && owner.host === hostname() && !pidAlive(owner.pid)) return true;
  return Date.now() - mtimeMs > staleMs;
}

async function breakLock(lockDir: string): Promise<void> {
  const aside = `${lockDir}.stale-${randomUUID()}`;
  try {
    await rename(lockDir, aside);
  } catch {
    return; // someone else broke it first
  }
  await rm(aside, { recursive: true, force: true });
}

export async function withFileLock<T>(
  lockDir: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10 * 60 * 1000;
  const staleMs = options.staleMs ?? 60_000;
  const pollMs = options.pollMs ?? 50;
  const owner: Owner = { pid: process.pid, host: hostname(), token: randomUUID() };
  const deadline = Date.now() + timeoutMs;
  await mkdir(dirname(lockDir), { recursive: true });

  for (;;) {
    try {
      await mkdir(lockDir);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (await isStale(lockDir, staleMs)) {
      await breakLock(lockDir);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new AutofixError('TIMEOUT', `waited ${timeoutMs} ms for the lock ${lockDir}`, {
        details: { lockDir, holder: await readOwner(lockDir) },
      });
    }
    await sleep(pollMs + Math.floor(Math.random() * pollMs));
  }

  await writeFile(join(lockDir, 'owner.json'), JSON.stringify(owner));
  const heartbeat = setInterval(() => {
    const now = new Date();
    utimes(lockDir, now, now).catch(() => undefined);
  }, staleMs / 4);
  heartbeat.unref();
  try {
    return await fn();
  } finally {
    clearInterval(heartbeat);
    // Only remove the lock if it is still ours (it could have been broken as stale).
    const current = await readOwner(lockDir);
    if (current?.token === owner.token) await breakLock(lockDir);
  }
}
