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
import type { Logger } from '../../logger.js';
import type { HookDeliveriesApi, HookDelivery } from './hook-deliveries.js';

// The reconciler's GitHub side lives in its own module; its names stay importable from here.
export {
  PER_PAGE,
  nextCursor,
  octokitHookDeliveries,
  type AppOctokit,
  type HookDeliveriesApi,
  type HookDelivery,
} from './hook-deliveries.js';

/** GitHub redelivers attempts of the last 3 days only. */
export const REDELIVERY_WINDOW_MS = 3 * 24 * 3600_000;

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

/** GitHub refuses to redeliver attempts older than its window: a few minutes' margin. */
const WINDOW_MARGIN_MS = 10 * 60_000;

/** What the steps of a pass share: the settings read once, the lock's token, the summary. */
interface Pass {
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

function passOf(options: ReconcileOptions): Pass {
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

/** One reconciliation pass (see the module comment). Never throws. */
export async function reconcileDeliveries(options: ReconcileOptions): Promise<ReconcileSummary> {
  const p = passOf(options);
  const { redis, log, keys, token, summary } = p;
  if (!(await takeLock(p, options.lockTtlMs ?? 5 * 60_000))) return summary;
  summary.ran = true;
  try {
    await runPass(p);
  } catch (err) {
    summary.error ??= `Redis: ${describe(err)}`;
    log.warn({ err: describe(err) }, 'delivery reconciliation ended early');
  } finally {
    await redis.eval(RELEASE, 1, keys.lock, token).catch(() => undefined);
  }
  logSummary(log, summary);
  return summary;
}

/** True when this pass holds the lock; false when another process does or Redis did not answer. */
async function takeLock(p: Pass, ttlMs: number): Promise<boolean> {
  try {
    if ((await p.redis.set(p.keys.lock, p.token, 'PX', ttlMs, 'NX')) === 'OK') return true;
    p.log.debug('delivery reconciliation: another process runs a pass');
    return false;
  } catch (err) {
    p.summary.error = `Redis: ${describe(err)}`;
    p.log.warn({ err: p.summary.error }, 'delivery reconciliation skipped: Redis did not answer');
    return false;
  }
}

function logSummary(log: Logger, summary: ReconcileSummary): void {
  const counts: Partial<ReconcileSummary> = { ...summary };
  delete counts.ran;
  if (summary.error || summary.failed > 0) log.info(counts, 'delivery reconciliation');
  else log.debug(counts, 'delivery reconciliation');
}

/** The pass itself, under the lock; Redis errors are thrown (the caller logs them). */
async function runPass(p: Pass): Promise<void> {
  const cursor = await readCursor(p);
  // 1. The attempts newer than the cursor (and the floor), newest first.
  const attempts = await listNewAttempts(p, cursor, lookbackFloor(p, cursor));
  if (attempts === undefined) return;
  p.summary.examined = attempts.length;
  if (attempts.length === 0) return;
  const newest = Math.max(...attempts.map((d) => d.id));
  // 2. Guids of handled events without a delivered attempt, oldest first.
  const failed = failedDeliveries(attempts, p.events);
  p.summary.failed = failed.length;
  // 3. Redeliveries, within the limits.
  const deferred = await redeliverFailed(p, failed);
  p.summary.deferred = deferred.length;
  // 4. The cursor: up to the newest attempt examined, but below every guid left for later.
  const advanceTo = deferred.length ? Math.min(...deferred.map((d) => d.id)) - 1 : newest;
  if (cursor === undefined || advanceTo > cursor) {
    await p.redis.eval(
      ADVANCE,
      2,
      p.keys.lock,
      p.keys.cursor,
      p.token,
      advanceTo,
      REDELIVERY_WINDOW_MS,
    );
  }
}

async function readCursor(p: Pass): Promise<number | undefined> {
  const stored = await p.redis.get(p.keys.cursor);
  return stored && /^\d+$/.test(stored) ? Number(stored) : undefined;
}

/** The oldest delivery time a pass examines. */
function lookbackFloor(p: Pass, cursor: number | undefined): number {
  const lookback = Math.min(
    cursor === undefined ? p.firstLookbackMs : REDELIVERY_WINDOW_MS,
    REDELIVERY_WINDOW_MS,
  );
  return p.now() - lookback + (lookback === REDELIVERY_WINDOW_MS ? WINDOW_MARGIN_MS : 0);
}

/**
 * The attempts newer than the cursor and the floor, newest first, within the page limit;
 * undefined when the pass must end here (stopped, or the listing failed: the summary says so).
 */
async function listNewAttempts(
  p: Pass,
  cursor: number | undefined,
  floor: number,
): Promise<HookDelivery[] | undefined> {
  const attempts: HookDelivery[] = [];
  let page: string | undefined;
  for (let pages = 0; ; pages++) {
    if (pages >= p.maxPages) {
      p.log.warn(
        { pages, examined: attempts.length },
        'delivery reconciliation: page limit reached; older deliveries are not examined',
      );
      break;
    }
    if (p.signal?.aborted) return undefined;
    const listed = await listPage(p, page);
    if (listed === undefined) return undefined;
    const older = listed.deliveries.findIndex((d) => {
      const at = Date.parse(d.delivered_at);
      return (cursor !== undefined && d.id <= cursor) || (Number.isFinite(at) && at < floor);
    });
    attempts.push(...(older === -1 ? listed.deliveries : listed.deliveries.slice(0, older)));
    if (older !== -1 || !listed.next || listed.deliveries.length === 0) break;
    page = listed.next;
  }
  return attempts;
}

/** One page of deliveries; undefined when stopped or GitHub failed (the summary says so). */
async function listPage(
  p: Pass,
  page: string | undefined,
): Promise<Awaited<ReturnType<HookDeliveriesApi['list']>> | undefined> {
  try {
    return await p.api.list(page);
  } catch (err) {
    if (p.signal?.aborted) return undefined;
    p.summary.error = `GET /app/hook/deliveries: ${describe(err)}`;
    p.log.warn({ err: p.summary.error }, 'delivery reconciliation: listing deliveries failed');
    return undefined;
  }
}

/**
 * The latest attempt of each guid of a handled event that no attempt delivered, when a
 * redelivery can mend it; oldest first.
 */
function failedDeliveries(
  attempts: readonly HookDelivery[],
  events: ReadonlySet<string>,
): HookDelivery[] {
  const byGuid = new Map<string, HookDelivery[]>();
  for (const d of attempts) {
    const key = d.action ? `${d.event}.${d.action}` : d.event;
    if (!events.has(d.event) && !events.has(key)) continue;
    byGuid.set(d.guid, [...(byGuid.get(d.guid) ?? []), d]);
  }
  return [...byGuid.values()]
    .filter((tries) => !tries.some(delivered))
    .map((tries) => tries.reduce((a, b) => (b.id > a.id ? b : a)))
    .filter(worthRetrying)
    .sort((a, b) => a.id - b.id);
}

/** Asks for the redeliveries in order, within the limits; returns the failed ones left for later. */
async function redeliverFailed(p: Pass, failed: readonly HookDelivery[]): Promise<HookDelivery[]> {
  const s = p.summary;
  const deferred: HookDelivery[] = [];
  for (const [i, latest] of failed.entries()) {
    if (p.signal?.aborted || s.error || s.redelivered >= p.maxPerPass) {
      deferred.push(...failed.slice(i));
      break;
    }
    if (!(await redeliver(p, latest))) deferred.push(latest);
  }
  return deferred;
}

/**
 * One failed delivery: skipped when handled, too old, or asked for already (or too often);
 * otherwise a claim in Redis, then the request. False when it is left for a later pass.
 */
async function redeliver(p: Pass, latest: HookDelivery): Promise<boolean> {
  if (await deliveryHandled(p.redis, p.prefix, latest.guid)) {
    p.summary.handled++;
    return true;
  }
  if (Date.parse(latest.delivered_at) < p.now() - REDELIVERY_WINDOW_MS + WINDOW_MARGIN_MS) {
    return true;
  }
  const [verdict, previous] = (await p.redis.eval(
    CLAIM,
    1,
    p.keys.guid(latest.guid),
    latest.id,
    p.maxPerGuid,
    REDELIVERY_WINDOW_MS,
  )) as [string, string];
  if (verdict === 'seen') return true;
  if (verdict === 'exhausted') {
    p.summary.exhausted++;
    p.log.warn(
      { ...fieldsOf(latest), requests: Number(previous) },
      'delivery reconciliation: redelivery asked for too often; giving up on this delivery',
    );
    return true;
  }
  return requestRedelivery(p, latest, previous);
}

/**
 * The claimed request to GitHub. A refusal of this delivery alone skips it; any other failure
 * gives the claim back and ends the pass's redeliveries (false: left for later).
 */
async function requestRedelivery(
  p: Pass,
  latest: HookDelivery,
  previous: string,
): Promise<boolean> {
  const fields = fieldsOf(latest);
  try {
    await p.api.redeliver(latest.id);
    p.summary.redelivered++;
    p.log.info({ ...fields, status: latest.status }, 'asked GitHub to redeliver a failed delivery');
    return true;
  } catch (err) {
    if (deliveryRefused(err)) {
      p.log.warn({ ...fields, err: describe(err) }, 'GitHub refused to redeliver a delivery');
      return true;
    }
    await p.redis
      .eval(UNCLAIM, 1, p.keys.guid(latest.guid), latest.id, previous)
      .catch(() => undefined);
    if (!p.signal?.aborted) {
      p.summary.error = `POST /app/hook/deliveries/${latest.id}/attempts: ${describe(err)}`;
      p.log.warn(
        { ...fields, err: p.summary.error },
        'delivery reconciliation: redelivery request failed',
      );
    }
    return false;
  }
}

const fieldsOf = (d: HookDelivery) => ({ guid: d.guid, deliveryId: d.id, event: d.event });
