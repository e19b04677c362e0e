/**
 * The missed-delivery reconciler's pass. GitHub does not redeliver a failed webhook delivery by
 * itself (server down, 5xx, time-out): this lists the App's recent deliveries
 * (`GET /app/hook/deliveries`, App JWT, newest first), groups the attempts by `guid` (the
 * X-GitHub-Delivery), and asks GitHub to redeliver the latest attempt of each guid that no attempt
 * delivered (`POST /app/hook/deliveries/{id}/attempts`) — for the events the app handles, and
 * unless our own Redis says the delivery was handled (`<prefix>:delivery:<guid>`, written by the
 * intake).
 *
 * Redis keys (all under `<prefix>:reconcile:`):
 * - `lock` → one pass at a time among the `serve` processes of a deployment (`SET NX PX`);
 * - `cursor` → the newest delivery id examined: a pass pages only down to it. Without one (first
 *   start, or none for 3 days) a pass looks back `firstLookbackMs`;
 * - `guid:<guid>` → how often we asked for that guid's redelivery and the last attempt we asked
 *   for (at most `maxRequestsPerGuid`, kept 3 days: GitHub's redelivery window).
 *
 * A pass never throws: GitHub or Redis errors are logged and end the pass; the next one tries
 * again from the same cursor.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../logger.js';

/** One attempt as GitHub lists it (fields the reconciler reads). */
export interface HookDelivery {
  id: number;
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  status: string;
  status_code: number;
  event: string;
  action: string | null;
  installation_id: number | null;
  repository_id: number | null;
}

/** The two App endpoints, as the reconciler needs them. */
export interface HookDeliveriesApi {
  /** One page, newest first, and the cursor of the next page (undefined on the last). */
  list(cursor: string | undefined): Promise<{ deliveries: HookDelivery[]; next?: string }>;
  /** Asks GitHub to redeliver that attempt (202). */
  redeliver(deliveryId: number): Promise<void>;
}

/** What of an Octokit the adapter uses (an App-authenticated one: these endpoints need the JWT). */
export interface AppOctokit {
  request(
    route: string,
    parameters?: Record<string, unknown>,
  ): Promise<{ data: unknown; headers: { link?: string | undefined } }>;
}

export const PER_PAGE = 100;
/** GitHub redelivers attempts of the last 3 days only. */
export const REDELIVERY_WINDOW_MS = 3 * 24 * 3600_000;

/** The `cursor` parameter of the `rel="next"` link, if any. */
export function nextCursor(link: string | undefined): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const m = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (!m) continue;
    try {
      return new URL(m[1]!, 'https://api.github.com').searchParams.get('cursor') ?? undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function octokitHookDeliveries(
  octokit: AppOctokit,
  signal?: AbortSignal,
): HookDeliveriesApi {
  const request = signal ? { request: { signal } } : {};
  return {
    async list(cursor) {
      const res = await octokit.request('GET /app/hook/deliveries', {
        per_page: PER_PAGE,
        ...(cursor ? { cursor } : {}),
        ...request,
      });
      return {
        deliveries: res.data as HookDelivery[],
        ...(nextCursor(res.headers.link) ? { next: nextCursor(res.headers.link)! } : {}),
      };
    },
    async redeliver(deliveryId) {
      await octokit.request('POST /app/hook/deliveries/{delivery_id}/attempts', {
        delivery_id: deliveryId,
        ...request,
      });
    },
  };
}

/** Read-only look at the intake's record: true when the delivery was handled (a run or a reply). */
export async function deliveryHandled(
  redis: Redis,
  prefix: string,
  guid: string,
): Promise<boolean> {
  return (await redis.exists(`${prefix}:delivery:${guid}`)) === 1;
}

export const reconcileKeys = (prefix: string) => ({
  lock: `${prefix}:reconcile:lock`,
  cursor: `${prefix}:reconcile:cursor`,
  guid: (guid: string) => `${prefix}:reconcile:guid:${guid}`,
});

/**
 * Counts a redelivery request of `ARGV[1]` (attempt id): 'seen' when that attempt (or a later one)
 * was already asked for, 'exhausted' at ARGV[2] requests, else 'ok' with the previous attempt id.
 */
const CLAIM = `
local last = tonumber(redis.call('HGET', KEYS[1], 'last') or '0')
if last >= tonumber(ARGV[1]) then return {'seen', tostring(last)} end
local n = tonumber(redis.call('HGET', KEYS[1], 'requests') or '0')
if n >= tonumber(ARGV[2]) then return {'exhausted', tostring(n)} end
redis.call('HSET', KEYS[1], 'requests', n + 1, 'last', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {'ok', tostring(last)}
`;
/** Gives back a claim whose request did not reach GitHub. */
const UNCLAIM = `
if redis.call('HGET', KEYS[1], 'last') ~= ARGV[1] then return 0 end
redis.call('HINCRBY', KEYS[1], 'requests', -1)
redis.call('HSET', KEYS[1], 'last', ARGV[2])
return 1
`;
/** Moves the cursor forward only, and only while the lock is still ours. */
const ADVANCE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
local cur = tonumber(redis.call('GET', KEYS[2]) or '0')
if tonumber(ARGV[2]) > cur then redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3]) return 1 end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 0
`;
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

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

const statusOf = (err: unknown): number | undefined => {
  const status = (err as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
};
const describe = (err: unknown): string => {
  const status = statusOf(err);
  const message = err instanceof Error ? err.message : String(err);
  return status ? `${status} ${message}` : message;
};
/** A request error that this delivery alone has (not GitHub's or our trouble): skip it. */
const deliveryRefused = (err: unknown): boolean => {
  const status = statusOf(err);
  return status !== undefined && status >= 400 && status < 500 && status !== 403 && status !== 429;
};
const delivered = (d: HookDelivery): boolean => d.status_code >= 200 && d.status_code < 300;
/**
 * Did the attempt fail in a way a redelivery can mend? No answer (0: refused, timed out), a 5xx,
 * 408 or 429 — not a 4xx the app gave on purpose (401 bad signature, 400 no id, 413 too large).
 */
const worthRetrying = (d: HookDelivery): boolean =>
  d.status_code === 0 || d.status_code >= 500 || d.status_code === 408 || d.status_code === 429;

/** One reconciliation pass (see the module comment). Never throws. */
export async function reconcileDeliveries(options: ReconcileOptions): Promise<ReconcileSummary> {
  const { api, redis, log } = options;
  const now = options.now ?? Date.now;
  const keys = reconcileKeys(options.prefix);
  const events = new Set<string>(options.events ?? DEFAULT_EVENTS);
  const maxPerGuid = options.maxRequestsPerGuid ?? 3;
  const maxPerPass = options.maxRedeliveriesPerPass ?? 20;
  const maxPages = options.maxPages ?? 50;
  const lockTtl = options.lockTtlMs ?? 5 * 60_000;
  const summary: ReconcileSummary = {
    ran: false,
    examined: 0,
    failed: 0,
    redelivered: 0,
    handled: 0,
    exhausted: 0,
    deferred: 0,
  };
  const token = randomUUID();
  try {
    if ((await redis.set(keys.lock, token, 'PX', lockTtl, 'NX')) !== 'OK') {
      log.debug('delivery reconciliation: another process runs a pass');
      return summary;
    }
  } catch (err) {
    summary.error = `Redis: ${describe(err)}`;
    log.warn({ err: summary.error }, 'delivery reconciliation skipped: Redis did not answer');
    return summary;
  }
  summary.ran = true;
  try {
    await pass(summary);
  } catch (err) {
    summary.error ??= `Redis: ${describe(err)}`;
    log.warn({ err: describe(err) }, 'delivery reconciliation ended early');
  } finally {
    await redis.eval(RELEASE, 1, keys.lock, token).catch(() => undefined);
  }
  const counts: Partial<ReconcileSummary> = { ...summary };
  delete counts.ran;
  if (summary.error || summary.failed > 0) log.info(counts, 'delivery reconciliation');
  else log.debug(counts, 'delivery reconciliation');
  return summary;

  async function pass(s: ReconcileSummary): Promise<void> {
    const stored = await redis.get(keys.cursor);
    const cursor = stored && /^\d+$/.test(stored) ? Number(stored) : undefined;
    const lookback = Math.min(
      cursor === undefined ? (options.firstLookbackMs ?? 6 * 3600_000) : REDELIVERY_WINDOW_MS,
      REDELIVERY_WINDOW_MS,
    );
    // A few minutes' margin: GitHub refuses attempts older than its window.
    const floor = now() - lookback + (lookback === REDELIVERY_WINDOW_MS ? 10 * 60_000 : 0);

    // 1. The attempts newer than the cursor (and the floor), newest first.
    const attempts: HookDelivery[] = [];
    let page: string | undefined;
    for (let pages = 0; ; pages++) {
      if (pages >= maxPages) {
        log.warn(
          { pages, examined: attempts.length },
          'delivery reconciliation: page limit reached; older deliveries are not examined',
        );
        break;
      }
      if (options.signal?.aborted) return;
      let listed: Awaited<ReturnType<HookDeliveriesApi['list']>>;
      try {
        listed = await api.list(page);
      } catch (err) {
        if (options.signal?.aborted) return;
        s.error = `GET /app/hook/deliveries: ${describe(err)}`;
        log.warn({ err: s.error }, 'delivery reconciliation: listing deliveries failed');
        return;
      }
      let reached = false;
      for (const d of listed.deliveries) {
        const at = Date.parse(d.delivered_at);
        if ((cursor !== undefined && d.id <= cursor) || (Number.isFinite(at) && at < floor)) {
          reached = true;
          break;
        }
        attempts.push(d);
      }
      if (reached || !listed.next || listed.deliveries.length === 0) break;
      page = listed.next;
    }
    s.examined = attempts.length;
    if (attempts.length === 0) return;
    const newest = Math.max(...attempts.map((d) => d.id));

    // 2. Guids of handled events without a delivered attempt, oldest first.
    const byGuid = new Map<string, HookDelivery[]>();
    for (const d of attempts) {
      const key = d.action ? `${d.event}.${d.action}` : d.event;
      if (!events.has(d.event) && !events.has(key)) continue;
      byGuid.set(d.guid, [...(byGuid.get(d.guid) ?? []), d]);
    }
    const failed = [...byGuid.values()]
      .filter((tries) => !tries.some(delivered))
      .map((tries) => tries.reduce((a, b) => (b.id > a.id ? b : a)))
      .filter(worthRetrying)
      .sort((a, b) => a.id - b.id);
    s.failed = failed.length;

    // 3. Redeliveries, within the limits.
    const deferred: HookDelivery[] = [];
    for (const [i, latest] of failed.entries()) {
      if (options.signal?.aborted || s.error || s.redelivered >= maxPerPass) {
        deferred.push(...failed.slice(i));
        break;
      }
      const log1 = { guid: latest.guid, deliveryId: latest.id, event: latest.event };
      if (await deliveryHandled(redis, options.prefix, latest.guid)) {
        s.handled++;
        continue;
      }
      if (Date.parse(latest.delivered_at) < now() - REDELIVERY_WINDOW_MS + 10 * 60_000) continue;
      const [verdict, previous] = (await redis.eval(
        CLAIM,
        1,
        keys.guid(latest.guid),
        latest.id,
        maxPerGuid,
        REDELIVERY_WINDOW_MS,
      )) as [string, string];
      if (verdict === 'seen') continue;
      if (verdict === 'exhausted') {
        s.exhausted++;
        log.warn(
          { ...log1, requests: Number(previous) },
          'delivery reconciliation: redelivery asked for too often; giving up on this delivery',
        );
        continue;
      }
      try {
        await api.redeliver(latest.id);
        s.redelivered++;
        log.info({ ...log1, status: latest.status }, 'asked GitHub to redeliver a failed delivery');
      } catch (err) {
        if (deliveryRefused(err)) {
          log.warn({ ...log1, err: describe(err) }, 'GitHub refused to redeliver a delivery');
          continue;
        }
        await redis
          .eval(UNCLAIM, 1, keys.guid(latest.guid), latest.id, previous)
          .catch(() => undefined);
        deferred.push(latest);
        if (!options.signal?.aborted) {
          s.error = `POST /app/hook/deliveries/${latest.id}/attempts: ${describe(err)}`;
          log.warn({ ...log1, err: s.error }, 'delivery reconciliation: redelivery request failed');
        }
      }
    }
    s.deferred = deferred.length;

    // 4. The cursor: up to the newest attempt examined, but below every guid left for later.
    const advanceTo = deferred.length ? Math.min(...deferred.map((d) => d.id)) - 1 : newest;
    if (cursor === undefined || advanceTo > cursor) {
      await redis.eval(ADVANCE, 2, keys.lock, keys.cursor, token, advanceTo, REDELIVERY_WINDOW_MS);
    }
  }
}
