/**
 * The missed-delivery reconciler in `serve` (startAutofix): deliveries recorded as failed in the
 * fake GitHub are redelivered for real (signed, to the app's webhook URL) and lead to one run.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { startFakeGitHub, type FakeGitHub } from '../../helpers/fake-github.js';
import { commentPayload, labeledPayload, WEBHOOK_PATH } from '../../helpers/webhooks.js';
import { WAIT_MS } from '../../helpers/deadlines.js';
import { REDIS_URL, SECRET, startHarness, waitFor, type Harness } from './harness.js';

const target = (h: Harness) => ({ url: `${h.app.url}${WEBHOOK_PATH}`, secret: SECRET });

async function triageIssues(h: Harness, count: number): Promise<number[]> {
  const jobs = await waitFor(
    async () => {
      const found = await h.runsAt('triage');
      return found.length >= count ? found : undefined;
    },
    WAIT_MS,
    `${count} triage job(s)`,
  );
  return jobs.map((j) => j.issue.number).sort((a, b) => a - b);
}

/**
 * Waits for `n` more complete passes of the reconcilers on this fake: a pass starts with the list
 * of deliveries, and passes take turns (a lock), so `n + 1` more lists mean `n` whole passes.
 * The marker to wait for before asserting that a pass did nothing more.
 */
async function morePasses(github: FakeGitHub, n: number): Promise<void> {
  const lists = (): number => github.calls('GET', '/app/hook/deliveries').length;
  const seen = lists();
  await waitFor(() => lists() >= seen + n + 1 || undefined, WAIT_MS, `${n} more passes`);
}

async function reconcileMetric(h: Harness, result: string): Promise<number> {
  const metric = await h.metrics.registry
    .getSingleMetric('autofix_delivery_reconcile_total')!
    .get();
  return metric.values.find((v) => v.labels.result === result)?.value ?? 0;
}

describe('missed-delivery reconciler in serve', () => {
  const open: Harness[] = [];
  let github: FakeGitHub | undefined;
  afterEach(async () => {
    // Shared fake and prefix: the last harness closes them.
    for (const h of open.splice(0).reverse()) await h.close();
    await github?.close();
    github = undefined;
  });

  it('redelivers a delivery that failed while the app was down: one run; handled ones are left alone', async () => {
    const h = await startHarness({ workers: false, reconcileIntervalMs: 200 });
    open.push(h);
    h.github.redeliverTo(target(h));

    // Failed while the app was down: GitHub recorded a time-out and a 503, the app saw nothing.
    const missed = labeledPayload({ issueNumber: 11 });
    const lost = h.github.addDelivery({ event: 'issues', payload: missed, statusCode: 0 });
    h.github.addDelivery({
      guid: lost.guid,
      event: 'issues',
      payload: missed,
      statusCode: 503,
      redelivery: true,
    });
    // Handled by the app, but GitHub saw a time-out (the app's own record says so).
    const handled = await h.send('issues', labeledPayload({ issueNumber: 12 }));
    expect(handled.status).toBe(200);
    const redis = new Redis(REDIS_URL);
    try {
      await waitFor(
        async () => (await redis.exists(`${h.prefix}:delivery:${handled.deliveryId}`)) || undefined,
        WAIT_MS,
        'the intake record of the handled delivery',
      );
    } finally {
      redis.disconnect();
    }
    h.github.addDelivery({ guid: handled.deliveryId, event: 'issues', action: 'labeled' });
    // Delivered through GitHub fine.
    const ok = await h.github.sendDelivery({
      event: 'issue_comment',
      payload: commentPayload({ issueNumber: 13, comment: '/autofix' }),
    });
    expect(ok.status_code).toBe(200);

    expect(await triageIssues(h, 3)).toEqual([11, 12, 13]);
    const [request] = h.github.redeliveryRequests;
    expect(request!.guid).toBe(lost.guid);
    await waitFor(() => request!.attempt, WAIT_MS, 'the redelivery attempt');
    expect(request!.attempt).toMatchObject({ guid: lost.guid, redelivery: true, status_code: 200 });
    // Several passes later: still one request, one run per issue.
    await morePasses(h.github, 3);
    expect(h.github.redeliveryRequests).toHaveLength(1);
    expect(await triageIssues(h, 3)).toEqual([11, 12, 13]);
    expect(await reconcileMetric(h, 'redelivered')).toBe(1);
    expect(await reconcileMetric(h, 'handled')).toBe(1);
  });

  it('redelivers once with two serve processes on the same prefix', async () => {
    github = await startFakeGitHub();
    const prefix = `autofix-test-${randomUUID().slice(0, 8)}`;
    const [a, b] = await Promise.all(
      [1, 2].map(() => startHarness({ workers: false, github, prefix, reconcileIntervalMs: 50 })),
    );
    open.push(a!, b!);
    github.redeliverTo(target(a!));
    await morePasses(github, 2); // the reconcilers are passing every 50 ms
    github.addDelivery({ event: 'issues', payload: labeledPayload({ issueNumber: 21 }) });
    expect(await triageIssues(a!, 1)).toEqual([21]);
    await morePasses(github, 4);
    expect(github.redeliveryRequests).toHaveLength(1);
    expect(await triageIssues(a!, 1)).toEqual([21]);
    const passes = github.calls('GET', '/app/hook/deliveries').length;
    expect(passes).toBeGreaterThan(4);
  });

  it('logs a GitHub 502 on the list, and the next pass redelivers', async () => {
    github = await startFakeGitHub();
    github.failNext('GET', '/app/hook/deliveries', 502);
    github.addDelivery({ event: 'issues', payload: labeledPayload({ issueNumber: 31 }) });
    const h = await startHarness({ workers: false, github, reconcileIntervalMs: 300 });
    open.push(h);
    // Set before the second pass (the first gets the 502); the first pass cannot have asked.
    h.github.redeliverTo(target(h));
    expect(await triageIssues(h, 1)).toEqual([31]);
    expect(await reconcileMetric(h, 'error')).toBe(1);
    expect(github.redeliveryRequests).toHaveLength(1);
    expect(github.calls('GET', '/app/hook/deliveries').length).toBeGreaterThanOrEqual(2);
  });
});
