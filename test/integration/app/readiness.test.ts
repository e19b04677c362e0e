/**
 * Issue 13: `/healthz` says the process is alive; `/readyz` says whether it can take work (Redis
 * answers, stage workers run) and answers 503 with the reason otherwise. A delivery without
 * `X-GitHub-Delivery` cannot be deduplicated and is refused instead of sharing the key ''.
 */
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { readinessProbe } from '../../../src/hosts/app/readyz.js';
import { labeledPayload, sign, WEBHOOK_PATH } from '../../helpers/webhooks.js';
import { startCaptured, type CapturedProcess } from './captured-log.js';
import { SECRET, waitFor } from './harness.js';
import { startOwnRedis, type OwnRedis } from './own-redis.js';
import { WAIT_MS } from '../../helpers/deadlines.js';

describe('liveness, readiness and deliveries without an id', () => {
  let proc: CapturedProcess | undefined;
  let redis: OwnRedis | undefined;
  afterEach(async () => {
    await proc?.close();
    await redis?.stop();
    proc = undefined;
    redis = undefined;
  });

  const get = async (url: string) => {
    const res = await fetch(url);
    return { status: res.status, body: (await res.json()) as Record<string, string> };
  };

  it('serve: /readyz turns 503 with the reason while Redis is down; /healthz stays 200', async () => {
    redis = await startOwnRedis();
    proc = await startCaptured({ kind: 'serve', redisUrl: redis.url, webhookSecret: SECRET });
    const base = proc.app!.url;
    expect(await get(`${base}/readyz`)).toEqual({ status: 200, body: { status: 'ready' } });
    await redis.stop();
    const down = await get(`${base}/readyz`);
    expect(down.status).toBe(503);
    expect(down.body.status).toBe('not ready');
    expect(down.body.reason).toMatch(/Redis/);
    expect(await get(`${base}/healthz`)).toEqual({ status: 200, body: { status: 'ok' } });
    // Back on the same port: ready again, without a restart of serve.
    redis = await startOwnRedis([], { port: Number(new URL(redis.url).port) });
    await waitFor(
      async () => ((await get(`${base}/readyz`)).status === 200 ? true : undefined),
      WAIT_MS,
      '/readyz after Redis came back',
    );
  });

  it('serve: refuses a signed delivery without X-GitHub-Delivery, and takes the same one with an id', async () => {
    redis = await startOwnRedis();
    proc = await startCaptured({ kind: 'serve', redisUrl: redis.url, webhookSecret: SECRET });
    const body = JSON.stringify(labeledPayload());
    const post = (headers: Record<string, string>) =>
      fetch(`${proc!.app!.url}${WEBHOOK_PATH}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'issues',
          'x-hub-signature-256': sign(body, SECRET),
          ...headers,
        },
        body,
      });
    const missing = await post({});
    expect(missing.status).toBe(400);
    expect(await missing.text()).toMatch(/x-github-delivery/i);
    const blank = await post({ 'x-github-delivery': '' });
    expect(blank.status).toBe(400);
    expect(await blank.text()).toMatch(/X-GitHub-Delivery header is missing or empty/);
    // With an id the same delivery gets past this check (this harness has no GitHub, so the
    // intake's config read then answers 503 for GitHub to redeliver).
    const withId = await post({ 'x-github-delivery': 'a1b2c3d4-0000-4000-8000-000000000001' });
    expect(withId.status).not.toBe(400);
  });

  it('names a stage worker that stopped running', async () => {
    redis = await startOwnRedis();
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    const worker = new Worker('autofix-readiness-code', () => Promise.resolve(undefined), {
      connection: { url: redis.url },
      prefix: 'autofix-readiness',
    });
    try {
      await worker.waitUntilReady();
      const probe = readinessProbe(client, () => [worker]);
      expect(await probe()).toBeUndefined();
      await worker.close();
      expect(await probe()).toBe('stage workers not running: autofix-readiness-code');
    } finally {
      await worker.close();
      client.disconnect();
    }
  });
});
