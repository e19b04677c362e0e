/** The listing side of a pass: the attempts since the cursor, and the failed ones worth a redelivery. */
import type { HookDeliveriesApi, HookDelivery } from './hook-deliveries.js';
import { REDELIVERY_WINDOW_MS, WINDOW_MARGIN_MS, describe, type Pass } from './reconcile-pass.js';

const delivered = (d: HookDelivery): boolean => d.status_code >= 200 && d.status_code < 300;
/**
 * Did the attempt fail in a way a redelivery can mend? No answer (0: refused, timed out), a 5xx,
 * 408 or 429 — not a 4xx the app gave on purpose (401 bad signature, 400 no id, 413 too large).
 */
const worthRetrying = (d: HookDelivery): boolean =>
  d.status_code === 0 || d.status_code >= 500 || d.status_code === 408 || d.status_code === 429;

export async function readCursor(p: Pass): Promise<number | undefined> {
  const stored = await p.redis.get(p.keys.cursor);
  return stored && /^\d+$/.test(stored) ? Number(stored) : undefined;
}

/** The oldest delivery time a pass examines. */
export function lookbackFloor(p: Pass, cursor: number | undefined): number {
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
export async function listNewAttempts(
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
export function failedDeliveries(
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
