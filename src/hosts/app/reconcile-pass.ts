/**
 * What a pass of the delivery reconciler is given and shares: its options, its Redis keys, the
 * time window GitHub redelivers in, and the summary it reports.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../../logger.js';
import type { HookDeliveriesApi } from './hook-deliveries.js';

/** GitHub redelivers attempts of the last 3 days only. */
export const REDELIVERY_WINDOW_MS = 3 * 24 * 3600_000;

export const reconcileKeys = (prefix: string) => ({
  lock: `${prefix}:reconcile:lock`,
  cursor: `${prefix}:reconcile:cursor`,
  guid: (guid: string) => `${prefix}:reconcile:guid:${guid}`,
});

/** GitHub refuses to redeliver attempts older than its window: a few minutes' margin. */
export const WINDOW_MARGIN_MS = 10 * 60_000;

export interface ReconcileOptions {
  api: HookDeliveriesApi;
  redis: Redis;
  prefix: string;
  log: Logger;
  now?: () => number;
  /** Deliveries worth a redelivery: `event` or `event.action` (default: what the app handles). */
  events?: readonly string[];
  /** Redelivery requests per guid, ever (default 3). */
  maxRequestsPerGuid?: number;
  /** Redelivery requests per pass (default 20); the rest waits for the next pass. */
  maxRedeliveriesPerPass?: number;
  /** How far back a pass without a cursor looks (default 6 h; never beyond GitHub's 3 days). */
  firstLookbackMs?: number;
  /** Pages per pass at most (default 50). */
  maxPages?: number;
  /** Lock expiry (default 5 min): a pass that dies leaves the lock to expire. */
  lockTtlMs?: number;
  signal?: AbortSignal;
}

export interface ReconcileSummary {
  /** False when another process held the lock. */
  ran: boolean;
  /** Attempts examined (newer than the cursor). */
  examined: number;
  /** Guids of handled events that no attempt delivered. */
  failed: number;
  redelivered: number;
  /** Failed, but our Redis says the app handled it (GitHub saw a time-out, say). */
  handled: number;
  /** Failed, but asked for `maxRequestsPerGuid` times already. */
  exhausted: number;
  /** Failed guids left for the next pass (per-pass limit, error, stop). */
  deferred: number;
  /** The error that ended the pass early. */
  error?: string;
}

export const DEFAULT_EVENTS = ['issues.labeled', 'issue_comment.created'] as const;

export const statusOf = (err: unknown): number | undefined => {
  const status = (err as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
};
export const describe = (err: unknown): string => {
  const status = statusOf(err);
  const message = err instanceof Error ? err.message : String(err);
  return status ? `${status} ${message}` : message;
};
/** What the steps of a pass share: the settings read once, the lock's token, the summary. */
export interface Pass {
  api: HookDeliveriesApi;
  redis: Redis;
  log: Logger;
  prefix: string;
  keys: ReturnType<typeof reconcileKeys>;
  now: () => number;
  events: ReadonlySet<string>;
  maxPerGuid: number;
  maxPerPass: number;
  maxPages: number;
  firstLookbackMs: number;
  signal: AbortSignal | undefined;
  token: string;
  summary: ReconcileSummary;
}

export function passOf(options: ReconcileOptions): Pass {
  return {
    api: options.api,
    redis: options.redis,
    log: options.log,
    prefix: options.prefix,
    keys: reconcileKeys(options.prefix),
    now: options.now ?? Date.now,
    events: new Set<string>(options.events ?? DEFAULT_EVENTS),
    maxPerGuid: options.maxRequestsPerGuid ?? 3,
    maxPerPass: options.maxRedeliveriesPerPass ?? 20,
    maxPages: options.maxPages ?? 50,
    firstLookbackMs: options.firstLookbackMs ?? 6 * 3600_000,
    signal: options.signal,
    token: randomUUID(),
    summary: {
      ran: false,
      examined: 0,
      failed: 0,
      redelivered: 0,
      handled: 0,
      exhausted: 0,
      deferred: 0,
    },
  };
}
