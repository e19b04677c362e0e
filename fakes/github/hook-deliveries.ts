/**
 * The App's webhook deliveries as GitHub keeps them (`/app/hook/deliveries`, what the
 * missed-delivery reconciler reads): the attempts recorded, the bodies kept for a redelivery, and
 * the redeliveries themselves, sent for real (signed, with the guid) when a test names a target.
 */
import { createHmac, randomUUID } from 'node:crypto';

/** One delivery attempt as `GET /app/hook/deliveries` lists it. */
export interface FakeDeliveryAttempt {
  id: number;
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  duration: number;
  status: string;
  status_code: number;
  event: string;
  action: string | null;
  installation_id: number | null;
  repository_id: number | null;
}

/** A test's delivery record (`addDelivery`): an attempt that GitHub made (or could not make). */
export interface FakeDeliverySpec {
  /** X-GitHub-Delivery; a new UUID when omitted (several attempts share one guid). */
  guid?: string;
  event: string;
  action?: string | null;
  /** The body GitHub sent; needed for a real redelivery (`redeliverTo`). */
  payload?: Record<string, unknown>;
  /** 0 = no connection or timed out (the default: the server was down). */
  statusCode?: number;
  /** GitHub's wording; derived from the status code when omitted. */
  status?: string;
  deliveredAt?: Date | string;
  redelivery?: boolean;
  installationId?: number | null;
  repositoryId?: number | null;
}

/** A `POST /app/hook/deliveries/:id/attempts` the fake received. */
export interface FakeRedeliveryRequest {
  /** The attempt that was asked to be redelivered. */
  deliveryId: number;
  guid: string;
  /** The new attempt, once the fake made it (only with a target). */
  attempt?: FakeDeliveryAttempt;
}

export interface FakeHookDeliveries {
  /** Every attempt, in the order recorded (ids ascending). */
  deliveries: FakeDeliveryAttempt[];
  redeliveryRequests: FakeRedeliveryRequest[];
  addDelivery(spec: FakeDeliverySpec): FakeDeliveryAttempt;
  /**
   * Where a redelivery goes (the app's webhook URL, path included) and the secret it is signed
   * with. Without a target a redelivery request is only recorded, as if GitHub never got to it.
   */
  redeliverTo(target: { url: string; secret: string } | undefined): void;
  /**
   * Sends a delivery for real (as GitHub would: signed, with the guid) and records the attempt
   * with the app's answer; needs a target.
   */
  sendDelivery(
    spec: FakeDeliverySpec & { payload: Record<string, unknown> },
  ): Promise<FakeDeliveryAttempt>;
  /** Waits for the redeliveries under way. */
  redeliveriesSettled(): Promise<void>;
}

/** The deliveries with what the routes need: a redelivery by attempt id, and the shutdown. */
export interface HookDeliveryLog {
  api: FakeHookDeliveries;
  /** Records the request and, with a target, redelivers; undefined when no such attempt. */
  redeliver(deliveryId: number): FakeRedeliveryRequest | undefined;
  close(): Promise<void>;
}

interface HookTarget {
  url: string;
  secret: string;
}

interface StoredDelivery {
  event: string;
  body: string;
}

const HOOK_TIMEOUT_MS = 10_000;
const FIRST_DELIVERY_ID = 90_000_000_001;

const hookStatusText = (code: number): string =>
  code === 0 ? 'timed out' : code >= 200 && code < 300 ? 'OK' : `Invalid HTTP Response: ${code}`;

/** The attempt GitHub would list for `spec`, answered with `statusCode` after `ms`. */
function attemptOf(
  id: number,
  spec: FakeDeliverySpec,
  guid: string,
  statusCode: number,
  ms: number,
): FakeDeliveryAttempt {
  const payload = spec.payload as
    { action?: string; installation?: { id?: number }; repository?: { id?: number } } | undefined;
  return {
    id,
    guid,
    delivered_at: new Date(spec.deliveredAt ?? Date.now()).toISOString().replace(/\.\d+Z$/, 'Z'),
    redelivery: spec.redelivery ?? false,
    duration: ms / 1000,
    status: spec.status ?? hookStatusText(statusCode),
    status_code: statusCode,
    event: spec.event,
    action: spec.action ?? payload?.action ?? null,
    installation_id:
      spec.installationId !== undefined ? spec.installationId : (payload?.installation?.id ?? null),
    repository_id:
      spec.repositoryId !== undefined ? spec.repositoryId : (payload?.repository?.id ?? null),
  };
}

/** POSTs a stored body to the target, as GitHub's hookshot does; the status code it got (0: none). */
async function postDelivery(
  target: HookTarget,
  stored: StoredDelivery,
  guid: string,
  signal: AbortSignal,
): Promise<{ code: number; ms: number }> {
  const started = performance.now();
  const signature = createHmac('sha256', target.secret).update(stored.body).digest('hex');
  try {
    const res = await fetch(target.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'GitHub-Hookshot/fake',
        'x-github-event': stored.event,
        'x-github-delivery': guid,
        'x-github-hook-id': '1',
        'x-github-hook-installation-target-type': 'integration',
        'x-hub-signature-256': `sha256=${signature}`,
      },
      body: stored.body,
      signal: AbortSignal.any([signal, AbortSignal.timeout(HOOK_TIMEOUT_MS)]),
    });
    await res.arrayBuffer();
    return { code: res.status, ms: performance.now() - started };
  } catch {
    return { code: 0, ms: performance.now() - started };
  }
}

export function createHookDeliveries(): HookDeliveryLog {
  const deliveries: FakeDeliveryAttempt[] = [];
  const payloads = new Map<string, StoredDelivery>();
  const redeliveryRequests: FakeRedeliveryRequest[] = [];
  const pending = new Set<Promise<unknown>>();
  const aborts = new AbortController();
  let target: HookTarget | undefined;
  let nextId = FIRST_DELIVERY_ID;

  const record = (spec: FakeDeliverySpec, guid: string, code: number, ms = 0) => {
    const attempt = attemptOf(nextId++, spec, guid, code, ms);
    deliveries.push(attempt);
    return attempt;
  };
  const remember = (spec: FakeDeliverySpec): string => {
    const guid = spec.guid ?? randomUUID();
    if (spec.payload) payloads.set(guid, { event: spec.event, body: JSON.stringify(spec.payload) });
    return guid;
  };
  const post = (guid: string): Promise<{ code: number; ms: number }> => {
    const stored = payloads.get(guid);
    return target && stored
      ? postDelivery(target, stored, guid, aborts.signal)
      : Promise.resolve({ code: 0, ms: 0 });
  };
  const track = <T>(work: Promise<T>): Promise<T> => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
    return work;
  };
  const settled = async (): Promise<void> => {
    while (pending.size > 0) await Promise.allSettled([...pending]);
  };

  const redeliver = (deliveryId: number): FakeRedeliveryRequest | undefined => {
    const original = deliveries.find((d) => d.id === deliveryId);
    if (!original) return undefined;
    const request: FakeRedeliveryRequest = { deliveryId: original.id, guid: original.guid };
    redeliveryRequests.push(request);
    if (!target || !payloads.has(original.guid)) return request;
    const again: FakeDeliverySpec = {
      event: original.event,
      action: original.action,
      installationId: original.installation_id,
      repositoryId: original.repository_id,
      redelivery: true,
    };
    void track(
      post(original.guid).then(({ code, ms }) => {
        request.attempt = record(again, original.guid, code, ms);
      }),
    );
    return request;
  };

  const api: FakeHookDeliveries = {
    deliveries,
    redeliveryRequests,
    addDelivery: (spec) => record(spec, remember(spec), spec.statusCode ?? 0),
    redeliverTo: (t) => void (target = t),
    sendDelivery(spec) {
      if (!target) throw new Error('sendDelivery needs redeliverTo(...) first');
      const guid = remember(spec);
      const sent = { ...spec, deliveredAt: spec.deliveredAt ?? new Date() };
      return track(post(guid).then(({ code, ms }) => record(sent, guid, code, ms)));
    },
    redeliveriesSettled: settled,
  };
  return {
    api,
    redeliver,
    async close() {
      aborts.abort();
      await settled();
    },
  };
}
