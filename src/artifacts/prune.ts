/**
 * Keeps a folder of per-run leftovers bounded on a long-running worker: entries (files or
 * folders) not modified for `maxAgeMs` are removed, at most once per `everyMs` per folder and
 * process. Best effort: a failure is logged and never fails a run.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../logger.js';

const lastPruned = new Map<string, number>();

export async function pruneOlderThan(
  dir: string,
  maxAgeMs: number,
  options: { everyMs?: number; now?: number; log?: Logger } = {},
): Promise<number> {
  const now = options.now ?? Date.now();
  const last = lastPruned.get(dir);
  if (last !== undefined && now - last < (options.everyMs ?? 3_600_000)) return 0;
  lastPruned.set(dir, now);
  let removed = 0;
  try {
    for (const name of await readdir(dir)) {
      const path = join(dir, name);
      const info = await stat(path).catch(() => undefined);
      if (info && now - info.mtimeMs > maxAgeMs) {
        await rm(path, { recursive: true, force: true });
        removed += 1;
      }
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      options.log?.warn({ err: String(err), dir }, 'could not prune old entries');
  }
  return removed;
}

/** How long a worker keeps run logs and baselines nobody asked for again. */
export const RUN_LOG_MAX_AGE_MS = 14 * 24 * 3600 * 1000;
export const BASELINE_MAX_AGE_MS = 30 * 24 * 3600 * 1000;
