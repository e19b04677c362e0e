/**
 * The cache's bound on disk: least recently used entries deleted first, never one a running job
 * is restoring from (it holds a lease). Deleting renames the entry aside first, so a reader sees
 * the whole entry or none.
 */
import { pidAlive } from '../../git/file-lock.js';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { asideName, entryDir, type EntryMeta, kindFile, leaseDir } from './layout.js';

let leaseCount = 0;

/** A lease on entry `key` for this process, until `release` is called. */
export async function takeLease(root: string, key: string): Promise<() => Promise<void>> {
  const dir = leaseDir(root, key);
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${process.pid}-${leaseCount++}`);
  await writeFile(file, '');
  return () => rm(file, { force: true });
}

/** Whether a live process holds a lease on `key` (leases of dead processes are removed). */
export async function leased(root: string, key: string): Promise<boolean> {
  const dir = leaseDir(root, key);
  const names = await readdir(dir).catch(() => [] as string[]);
  let held = false;
  for (const name of names) {
    if (pidAlive(Number(name.split('-')[0]))) held = true;
    else await rm(join(dir, name), { force: true });
  }
  return held;
}

/** Marks the entry used now (LRU order). */
export async function touchEntry(root: string, key: string): Promise<void> {
  const now = new Date();
  await utimes(join(entryDir(root, key), 'used'), now, now).catch(() => undefined);
}

/** Deletes entry `key` (and the mark that its setup builds from sources). */
export async function dropEntry(root: string, key: string): Promise<void> {
  const aside = asideName(root, 'trash', key);
  await mkdir(join(root, 'trash'), { recursive: true });
  try {
    await rename(entryDir(root, key), aside);
  } catch {
    return;
  }
  await rm(aside, { recursive: true, force: true });
}

export async function dropKind(root: string, depKey: string): Promise<void> {
  await rm(kindFile(root, depKey), { force: true });
}

export interface CachedEntry extends EntryMeta {
  usedMs: number;
}

/** Every complete entry with its size and last use. */
export async function listEntries(root: string): Promise<CachedEntry[]> {
  const keys = await readdir(join(root, 'entries')).catch(() => [] as string[]);
  const entries = await Promise.all(
    keys.map(async (key) => {
      try {
        const meta = JSON.parse(
          await readFile(join(entryDir(root, key), 'meta.json'), 'utf8'),
        ) as EntryMeta;
        const used = await stat(join(entryDir(root, key), 'used'));
        return { ...meta, key, usedMs: used.mtimeMs };
      } catch {
        return undefined;
      }
    }),
  );
  return entries.filter((e): e is CachedEntry => e !== undefined);
}

/** Deletes least recently used entries until the total fits `maxBytes`; returns the keys gone. */
export async function evict(root: string, maxBytes: number, keep?: string): Promise<string[]> {
  const entries = (await listEntries(root)).sort((a, b) => a.usedMs - b.usedMs);
  let total = entries.reduce((sum, e) => sum + e.bytes, 0);
  const gone: string[] = [];
  for (const entry of entries) {
    if (total <= maxBytes) break;
    if (entry.key === keep || (await leased(root, entry.key))) continue;
    await dropEntry(root, entry.key);
    total -= entry.bytes;
    gone.push(entry.key);
  }
  return gone;
}
