/**
 * The reconciler's pass against the fake GitHub over HTTP (an App-authenticated Probot Octokit,
 * JWT checked by the fake) and the shared Redis under a unique prefix.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createLogger } from '../../../src/logger.js';
import { probotClass } from '../../../src/hosts/app/probot-class.js';
import {
  nextCursor,
  octokitHookDeliveries,
  type AppOctokit,
} from '../../../src/hosts/app/hook-deliveries.js';
import { reconcileDeliveries } from '../../../src/hosts/app/reconcile-deliveries.js';
import { reconcileKeys, type ReconcileOptions } from '../../../src/hosts/app/reconcile-pass.js';
import {
  startFakeGitHub,
  type FakeDeliverySpec,
  type FakeGitHub,
} from '../../helpers/fake-github.js';
import { testOctokit } from '../../helpers/github-client.js';
import { generateAppKeyPair, labeledPayload } from '../../helpers/webhooks.js';
import { captureLog } from './captured-log.js';
import { deleteKeys, REDIS_URL } from './harness.js';

const keys = generateAppKeyPair();
const HOUR = 3600_000;

describe('nextCursor', () => {
  it('reads the cursor of the rel="next" link only', () => {
    const link =
      '<https://api.github.com/app/hook/deliveries?per_page=100&cursor=v1_42>; rel="next", ' +
      '<https://api.github.com/app/hook/deliveries?per_page=100>; rel="first"';
    expect(nextCursor(link)).toBe('v1_42');
    expect(nextCursor('<https://x/y?cursor=v1_1>; rel="prev"')).toBeUndefined();
    expect(nextCursor(undefined)).toBeUndefined();
  });
});

describe('reconcileDeliveries (fake GitHub over HTTP, real Redis)', () => {
  let github: FakeGitHub;
  let redis: Redis;
  let prefix: string;
  let octokit: AppOctokit;
  let clock: number;
  let captured: ReturnType<typeof captureLog>;

  const pass = (extra: Partial<ReconcileOptions> = {}) =>
    reconcileDeliveries({
      api: octokitHookDeliveries(octokit),
      redis,
      prefix,
      log: captured.log,
      now: () => clock,
      ...extra,
    });
  /** A failed (never delivered) `issues.labeled` delivery. */
  const failed = (spec: Partial<FakeDeliverySpec> = {}) =>
    github.addDelivery({ event: 'issues', action: 'labeled', statusCode: 0, ...spec });
  const requested = () => github.redeliveryRequests.map((r) => r.deliveryId);

  beforeEach(async () => {
    github = await startFakeGitHub({ appPublicKey: keys.publicKey });
    redis = new Redis(REDIS_URL);
    prefix = `autofix-reconcile-${randomUUID().slice(0, 8)}`;
    captured = captureLog([]);
    const Probot = probotClass(
      { appId: '1', privateKey: keys.privateKey, apiUrl: github.apiUrl, Octokit: testOctokit() },
      createLogger({ level: 'silent' }),
    );
    octokit = await new Probot().auth();
    clock = Date.now();
  });
  afterEach(async () => {
    await github.close();
    await deleteKeys(REDIS_URL, prefix);
    redis.disconnect();
  });

  it('redelivers the latest attempt of each guid of a handled event that no attempt delivered, oldest first', async () => {
    // A: failed, then delivered on a later attempt: nothing to do.
    failed({ guid: 'A' });
    github.addDelivery({ guid: 'A', event: 'issues', action: 'labeled', statusCode: 200 });
    // B: two failed attempts (503, then no connection): the latest is redelivered.
    failed({ guid: 'B', statusCode: 503 });
    const c = failed({ guid: 'C', event: 'issue_comment', action: 'created', statusCode: 502 });
    const b2 = failed({ guid: 'B', redelivery: true });
    // Events the app does not handle are left alone.
    failed({ guid: 'D', event: 'issues', action: 'opened' });
    failed({ guid: 'E', event: 'push', action: null });
    // Refused on purpose by the app (bad signature, too large): a redelivery cannot mend them.
    failed({ guid: 'F', statusCode: 401 });
    failed({ guid: 'G', event: 'issue_comment', action: 'created', statusCode: 413 });

    const summary = await pass();
    expect(summary).toMatchObject({ ran: true, examined: 9, failed: 2, redelivered: 2 });
    expect(requested()).toEqual([c.id, b2.id]);
    // Only the App's JWT was used, on the two App endpoints.
    expect(github.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /app/hook/deliveries',
      `POST /app/hook/deliveries/${c.id}/attempts`,
      `POST /app/hook/deliveries/${b2.id}/attempts`,
    ]);
    expect(String(github.requests[0]!.headers.authorization)).toMatch(/^bearer ey/i);
    expect(captured.text()).toContain('"redelivered":2');
  });

  it('pages through the Link cursor, then stops at the cursor it saved', async () => {
    const oldest = failed({ guid: 'old' });
    for (let i = 0; i < 249; i++) {
      github.addDelivery({ event: 'issues', action: 'labeled', statusCode: 200 });
    }
    expect(await pass()).toMatchObject({ examined: 250, failed: 1, redelivered: 1 });
    const lists = github.calls('GET', '/app/hook/deliveries');
    expect(lists.map((r) => r.query.cursor)).toEqual([
      undefined,
      expect.any(String),
      expect.any(String),
    ]);
    expect(lists.every((r) => r.query.per_page === '100')).toBe(true);
    expect(requested()).toEqual([oldest.id]);
    const newest = github.deliveries.at(-1)!.id;
    expect(await redis.get(reconcileKeys(prefix).cursor)).toBe(String(newest));

    // Nothing new: one page, read down to the cursor, no request.
    expect(await pass()).toMatchObject({ examined: 0, redelivered: 0 });
    expect(github.calls('GET', '/app/hook/deliveries')).toHaveLength(4);
    // A new failure: only it is examined and redelivered.
    const later = failed();
    expect(await pass()).toMatchObject({ examined: 1, failed: 1, redelivered: 1 });
    expect(requested()).toEqual([oldest.id, later.id]);
  });

  it('looks back 6 hours on first start, never past GitHub’s 3 days', async () => {
    failed({ deliveredAt: new Date(clock - 7 * HOUR) });
    const recent = failed({ deliveredAt: new Date(clock - 5 * HOUR) });
    expect(await pass()).toMatchObject({ examined: 1, redelivered: 1 });
    expect(requested()).toEqual([recent.id]);

    // With a cursor, a pass looks back up to GitHub's window and no further.
    failed({ deliveredAt: new Date(clock - 80 * HOUR) }); // newer id, but too old to redeliver
    const inWindow = failed({ deliveredAt: new Date(clock - 30 * HOUR) });
    expect(await pass()).toMatchObject({ examined: 1, redelivered: 1 });
    expect(requested()).toEqual([recent.id, inWindow.id]);
  });

  it('skips a delivery that our Redis says was handled (GitHub saw a time-out)', async () => {
    failed({ guid: 'handled', status: 'timed out' });
    await redis.set(`${prefix}:delivery:handled`, 'run-1', 'PX', 60_000);
    expect(await pass()).toMatchObject({ failed: 1, handled: 1, redelivered: 0 });
    expect(requested()).toEqual([]);
  });

  it('asks at most 3 times per guid, even when every redelivery fails', async () => {
    // Redeliveries go to a closed port: each is recorded as a new failed attempt, as on GitHub.
    github.redeliverTo({ url: 'http://127.0.0.1:9/api/github/webhooks', secret: 's' });
    failed({ guid: 'doomed', payload: labeledPayload() });
    for (let i = 1; i <= 3; i++) {
      expect(await pass()).toMatchObject({ failed: 1, redelivered: 1 });
      await github.redeliveriesSettled();
    }
    expect(await pass()).toMatchObject({ failed: 1, exhausted: 1, redelivered: 0 });
    expect(github.redeliveryRequests).toHaveLength(3);
    expect(github.deliveries.filter((d) => d.redelivery)).toHaveLength(3);
    expect(captured.text()).toContain('asked for too often');
    const ttl = await redis.pttl(reconcileKeys(prefix).guid('doomed'));
    expect(ttl).toBeGreaterThan(71 * HOUR);
  });

  it('asks for a bounded number per pass; the rest waits for the next pass, none twice', async () => {
    const all = [1, 2, 3, 4, 5].map(() => failed());
    expect(await pass({ maxRedeliveriesPerPass: 2 })).toMatchObject({
      failed: 5,
      redelivered: 2,
      deferred: 3,
    });
    expect(await pass({ maxRedeliveriesPerPass: 2 })).toMatchObject({ redelivered: 2 });
    expect(await pass({ maxRedeliveriesPerPass: 2 })).toMatchObject({ redelivered: 1 });
    expect(await pass({ maxRedeliveriesPerPass: 2 })).toMatchObject({ examined: 0 });
    expect(requested()).toEqual(all.map((d) => d.id));
  });

  it('lets one pass run at a time per prefix', async () => {
    const one = failed();
    const results = await Promise.all([pass(), pass(), pass()]);
    expect(results.filter((r) => r.ran)).toHaveLength(1);
    expect(requested()).toEqual([one.id]);
    expect(await redis.exists(reconcileKeys(prefix).lock)).toBe(0);
    // A lock held elsewhere: no pass at all.
    await redis.set(reconcileKeys(prefix).lock, 'someone-else', 'PX', 60_000);
    failed();
    expect(await pass()).toMatchObject({ ran: false });
    expect(github.calls('GET', '/app/hook/deliveries')).toHaveLength(1);
  });

  it('logs a GitHub error and ends the pass; the next pass goes on from the same place', async () => {
    const first = failed();
    github.failNext('GET', '/app/hook/deliveries', 502);
    const listFailed = await pass();
    expect(listFailed).toMatchObject({ ran: true, redelivered: 0 });
    expect(listFailed.error).toContain('502');
    expect(captured.text()).toContain('listing deliveries failed');
    expect(await redis.exists(reconcileKeys(prefix).cursor)).toBe(0);

    // A rate limit on a redelivery: the pass stops there; nothing counted against that guid.
    const second = failed();
    github.failNext('POST', `/app/hook/deliveries/${first.id}/attempts`, 403);
    const rateLimited = await pass();
    expect(rateLimited).toMatchObject({ redelivered: 0, deferred: 2 });
    expect(rateLimited.error).toContain('403');
    expect(await pass()).toMatchObject({ redelivered: 2, deferred: 0 });
    expect(requested()).toEqual([first.id, second.id]);
    expect(await redis.hget(reconcileKeys(prefix).guid(first.guid), 'requests')).toBe('1');
  });

  it('skips a delivery GitHub refuses to redeliver (422) and goes on', async () => {
    const refused = failed();
    const next = failed();
    github.failNext('POST', `/app/hook/deliveries/${refused.id}/attempts`, 422);
    expect(await pass()).toMatchObject({ redelivered: 1, deferred: 0 });
    expect(requested()).toEqual([next.id]);
    expect(captured.text()).toContain('GitHub refused to redeliver');
  });
});
