import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { silentLogger } from '../../../src/logger.js';
import { createInstallationLimiter } from '../../../src/scheduler/installation-limiter.js';
import { createRunIntake } from '../../../src/intake/run-intake.js';
import { createRunRegistry } from '../../../src/runs/run-registry.js';
import { createMemoryRunStore } from '../../../src/runs/memory-run-store.js';
import type { StageQueues } from '../../../src/scheduler/stage-queues.js';
import type { RunJobData } from '../../../src/runs/types.js';
import { QueueUnavailableError } from '../../../src/scheduler/with-deadline.js';
import { WAIT_MS } from '../../helpers/deadlines.js';
import { waitFor } from '../../helpers/wait-for.js';

const run = { repoFullName: 'octo/app', issueNumber: 7 };

describe('Redis bookkeeping (real Redis, unique prefix)', () => {
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

  it('lets one run claim an issue; another delivery finds it busy; a repeated one is a duplicate', async () => {
    const registry = createRunRegistry(redis, prefix);
    expect(await registry.claim('d1', run, 'run-1')).toEqual({ kind: 'claimed', runId: 'run-1' });
    expect(await registry.claim('d1', run, 'run-1')).toEqual({ kind: 'claimed', runId: 'run-1' });
    await registry.markDelivered(['d1'], 'run-1');
    expect(await registry.claim('d1', run, 'run-1')).toEqual({
      kind: 'duplicate',
      previous: 'run-1',
    });
    expect(await registry.claim('d2', run, 'run-2')).toEqual({
      kind: 'busy',
      activeRunId: 'run-1',
    });
    expect(await registry.claim('d2', run, 'run-2')).toEqual({
      kind: 'duplicate',
      previous: 'busy:run-1',
    });
    expect(await registry.firstBusyReply('run-1')).toBe(true);
    expect(await registry.firstBusyReply('run-1')).toBe(false);
    await registry.release(run, 'run-2'); // not its lock: no effect
    expect(await registry.claim('d3', run, 'run-3')).toMatchObject({ kind: 'busy' });
    await registry.release(run, 'run-1');
    expect(await registry.claim('d3b', run, 'run-3')).toEqual({ kind: 'claimed', runId: 'run-3' });
  });

  it('lets only one of many concurrent triggers for an issue win', async () => {
    const registry = createRunRegistry(redis, prefix);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => registry.claim(`d${i}`, run, `run-${i}`)),
    );
    expect(results.filter((r) => r.kind === 'claimed')).toHaveLength(1);
  });

  it('answers QueueUnavailableError within the bound and undoes a claim that lands late', async () => {
    const registry = createRunRegistry(redis, prefix);
    // Redis holds the claim until the test lets it through, long after the intake's bound.
    let letThrough!: () => void;
    const held = new Promise<void>((resolve) => (letThrough = resolve));
    let landed: Promise<unknown> | undefined;
    const slowRegistry = {
      ...registry,
      claim: (...args: Parameters<typeof registry.claim>) => {
        const claim = held.then(() => registry.claim(...args));
        landed = claim;
        return claim;
      },
    };
    const intake = createRunIntake({
      queues: {} as StageQueues,
      registry: slowRegistry,
      runs: createMemoryRunStore(),
      log: silentLogger,
      timeoutMs: 50,
    });
    const data = {
      runId: 'run-late',
      deliveryId: 'd-late',
      repository: { fullName: 'octo/app' },
      issue: { number: 7 },
    };
    // Answered while the claim is still held (so within the bound: without it, never).
    await expect(intake.start(data as RunJobData)).rejects.toBeInstanceOf(QueueUnavailableError);
    letThrough();
    await landed; // the lock was taken…
    await waitFor(
      async () => (await redis.get(`${prefix}:run-lock:octo/app#7`)) === null || undefined,
      WAIT_MS,
      'the late claim to be undone', // …and is given back
    );
  });

  it('takes the claim and the delivery record back when the first job cannot be enqueued', async () => {
    const registry = createRunRegistry(redis, prefix);
    const failing = {
      triage: {
        priorities: { next: () => Promise.resolve(1) },
        add: () => Promise.reject(new Error('OOM command not allowed')),
      },
    };
    const runs = createMemoryRunStore();
    const intake = createRunIntake({
      queues: failing as unknown as StageQueues,
      registry,
      runs,
      log: silentLogger,
    });
    const data = {
      runId: 'run-x',
      deliveryId: 'd-x',
      triggerKey: 'comment:77',
      repository: { fullName: 'octo/app' },
      issue: { number: 7 },
      facts: { conversation: 7, existingBranch: 'replace-bot-only' },
    };
    await expect(intake.start(data as RunJobData)).rejects.toBeInstanceOf(QueueUnavailableError);
    // The claim was taken before the enqueue failed; the undo runs in the background.
    await waitFor(
      async () => (await redis.get(`${prefix}:run-lock:octo/app#7`)) === null || undefined,
      WAIT_MS,
      'the claim to be taken back',
    );
    expect(await registry.claim('comment:77', run, 'run-x')).toEqual({
      kind: 'claimed',
      runId: 'run-x',
    });
    expect(await redis.get(`${prefix}:delivery:d-x`)).toBeNull();
    // The run's record goes with it: nothing shows a run that never started.
    await waitFor(async () => ((await runs.get('run-x')) === undefined ? true : undefined));
  });

  it('limits stage jobs per installation per window', async () => {
    const limiter = createInstallationLimiter(redis, prefix, { max: 2, durationMs: 60_000 });
    const now = 120_000;
    expect(await limiter.take(1, now)).toEqual({ allowed: true });
    expect(await limiter.take(1, now)).toEqual({ allowed: true });
    const third = await limiter.take(1, now);
    expect(third.allowed).toBe(false);
    expect(!third.allowed && third.retryAt).toBeGreaterThanOrEqual(180_000);
    expect(await limiter.take(2, now)).toEqual({ allowed: true });
    expect(await limiter.take(1, now + 60_000)).toEqual({ allowed: true });
  });
});
