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
import type { Redis } from 'ioredis';
import type { Logger } from '../../logger.js';
import type { HookDelivery } from './hook-deliveries.js';
import {
  failedDeliveries,
  listNewAttempts,
  lookbackFloor,
  readCursor,
} from './list-failed-deliveries.js';
import {
  REDELIVERY_WINDOW_MS,
  WINDOW_MARGIN_MS,
  describe,
  passOf,
  statusOf,
  type Pass,
  type ReconcileOptions,
  type ReconcileSummary,
} from './reconcile-pass.js';

/** Read-only look at the intake's record: true when the delivery was handled (a run or a reply). */
export async function deliveryHandled(
  redis: Redis,
  prefix: string,
  guid: string,
): Promise<boolean> {
  return (await redis.exists(`${prefix}:delivery:${guid}`)) === 1;
}

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

/** A request error that this delivery alone has (not GitHub's or our trouble): skip it. */
const deliveryRefused = (err: unknown): boolean => {
  const status = statusOf(err);
  return status !== undefined && status >= 400 && status < 500 && status !== 403 && status !== 429;
};
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
