import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { isAutofixError } from '../../../src/errors.js';
import { silentLogger } from '../../../src/logger.js';
import { createRunRegistry } from '../../../src/runs/run-registry.js';
import { withNamedLock } from '../../../src/scheduler/with-named-lock.js';
import { underLoad } from '../../helpers/deadlines.js';

describe('withNamedLock (real Redis, unique prefix)', () => {
  let redis: Redis;
  let prefix: string;
  beforeEach(() => {
    redis = new Redis('redis://127.0.0.1:6379');
    prefix = `autofix-unit-${randomUUID().slice(0, 8)}`;
  });
  afterEach(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('runs the holders of one name one at a time, and frees the name after each', async () => {
    const registry = createRunRegistry(redis, prefix);
    const options = { ttlMs: underLoad(10_000), waitMs: underLoad(5_000), log: silentLogger };
    let inside = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      [1, 2, 3].map((n) =>
        withNamedLock(registry, 'ci:octo/app#5', options, async () => {
          most = Math.max(most, ++inside);
          // Held a while, so that the others come while it is held: the thing under test.
          await new Promise((r) => setTimeout(r, 50));
          order.push(n);
          inside--;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(order.sort()).toEqual([1, 2, 3]);
    expect(await redis.get(`${prefix}:lock:ci:octo/app#5`)).toBeNull();
    // Another name never waits for this one.
    const release = await registry.lock('ci:octo/app#5', 10_000);
    await expect(
      withNamedLock(registry, 'ci:octo/app#6', options, () => Promise.resolve('free')),
    ).resolves.toBe('free');
    await release!();
  });

  it('gives up after waitMs with a recoverable error (the job retries), and a holder that died frees it by expiry', async () => {
    const registry = createRunRegistry(redis, prefix);
    const held = await registry.lock('n', 400); // a holder that never releases
    expect(held).toBeDefined();
    const err = await withNamedLock(
      registry,
      'n',
      { ttlMs: 1000, waitMs: 150, log: silentLogger },
      () => Promise.resolve('never'),
    ).catch((e: unknown) => e);
    expect(isAutofixError(err) && err.recoverable).toBe(true);
    await expect(
      withNamedLock(registry, 'n', { ttlMs: 1000, waitMs: 2000, log: silentLogger }, () =>
        Promise.resolve('after expiry'),
      ),
    ).resolves.toBe('after expiry');
    // The dead holder's release no longer deletes a later holder's lock.
    const later = await registry.lock('n', 10_000);
    await held!();
    expect(await registry.lock('n', 10_000)).toBeUndefined();
    await later!();
  });
});
