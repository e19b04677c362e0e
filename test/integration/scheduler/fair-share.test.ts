import { randomUUID } from 'node:crypto';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { deleteKeys } from '../../../src/scheduler/delete-keys.js';
import { addStageJob } from '../../../src/scheduler/fair-share/add-stage-job.js';
import {
  fairShareKey,
  MAX_PRIORITY,
  RENUMBER_AFTER,
} from '../../../src/scheduler/fair-share/fair-priority.js';
import type { JobOrder } from '../../../src/scheduler/fair-share/stage-queue.js';
import {
  closeStageQueues,
  createStageQueues,
  type StageQueues,
} from '../../../src/scheduler/stage-queues.js';
import type { RunJobData } from '../../../src/runs/types.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const A = 101;
const B = 202;
const C = 303;

/** One process's view: its own connection and stage queues on the shared prefix. */
interface Producer {
  redis: Redis;
  queues: StageQueues;
}

describe('fair share between installations on a stage queue (real Redis, unique prefix)', () => {
  let prefix: string;
  let producers: Producer[];
  let worker: Worker | undefined;
  let seq = 0;

  const open = (order: JobOrder = 'fair'): Producer => {
    const redis = new Redis(REDIS_URL);
    const producer = { redis, queues: createStageQueues(redis, prefix, undefined, order) };
    producers.push(producer);
    return producer;
  };
  const add = async (p: Producer, installationId: number, jobId = `run-${++seq}-triage`) => {
    const data = { runId: jobId, installationId } as RunJobData;
    const job = await addStageJob(p.queues, 'triage', data, jobId, installationId);
    return job.opts.priority;
  };
  /** The installations of the waiting triage jobs, in the order a worker takes them. */
  const order = async (p: Producer): Promise<number[]> => {
    const jobs = await p.queues.triage.getJobs(['prioritized'], 0, -1, true);
    return jobs.map((j) => (j.data as unknown as RunJobData).installationId);
  };
  /** A worker takes the next `n` triage jobs and completes them; their installations. */
  const take = async (n: number): Promise<number[]> => {
    worker ??= new Worker('triage', null, { connection: { url: REDIS_URL }, prefix });
    const taken: number[] = [];
    for (let i = 0; i < n; i++) {
      const token = randomUUID();
      const job = await worker.getNextJob(token);
      if (!job) throw new Error('no job to take');
      taken.push((job.data as RunJobData).installationId);
      await job.moveToCompleted('done', token, false);
    }
    return taken;
  };

  beforeEach(() => {
    prefix = `autofix-fair-${randomUUID().slice(0, 8)}`;
    producers = [];
    worker = undefined;
  });
  afterEach(async () => {
    await worker?.close();
    for (const p of producers) {
      await closeStageQueues(p.queues);
      p.redis.disconnect();
    }
    await deleteKeys(REDIS_URL, prefix);
  });

  it("puts a newcomer's job behind at most one job of each installation already waiting", async () => {
    const p = open();
    for (let i = 0; i < 10; i++) await add(p, A);
    await add(p, B);
    for (let i = 0; i < 3; i++) await add(p, C);
    expect(await order(p)).toEqual([A, B, C, A, C, A, C, A, A, A, A, A, A, A]);
  });

  it('numbers from the round being served, so newcomers never overtake a waiting installation for good', async () => {
    const p = open();
    for (let i = 0; i < 10; i++) await add(p, A);
    expect(await take(4)).toEqual([A, A, A, A]);
    // B's first job joins the round being served (A's fourth's), ahead of A's next; its second
    // the round after, behind A's job of that round; C's first, later, the round being served too.
    expect(await add(p, B)).toBe(4);
    expect(await add(p, B)).toBe(5);
    expect(await add(p, A)).toBe(11); // after A's own last job
    expect(await add(p, C)).toBe(4);
    expect(await order(p)).toEqual([B, C, A, B, A, A, A, A, A, A]);
  });

  it('gives concurrent producers in several processes distinct rounds for one installation', async () => {
    const first = open();
    const second = open();
    const priorities = await Promise.all(
      Array.from({ length: 30 }, (_, i) => add(i % 2 === 0 ? first : second, A)),
    );
    expect([...priorities].sort((x, y) => x! - y!)).toEqual(
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
  });

  it('keeps its numbering across a restart: the state is in Redis, not in the process', async () => {
    const before = open();
    for (let i = 0; i < 6; i++) await add(before, A);
    await take(2);
    await closeStageQueues(before.queues);
    before.redis.disconnect();
    producers = producers.filter((p) => p !== before);

    const after = open();
    expect(await add(after, B)).toBe(2);
    expect(await add(after, A)).toBe(7);
    expect(await order(after)).toEqual([B, A, A, A, A, A]);
  });

  it('gives a job added again under its id its first number, and takes no round for it', async () => {
    const p = open();
    expect(await add(p, A, 'run-x-triage')).toBe(1);
    expect(await add(p, A, 'run-x-triage')).toBe(1);
    expect(await add(p, A)).toBe(2);
  });

  it('holds the round of a number given to a job whose add has not landed yet', async () => {
    const p = open();
    await add(p, A);
    const slow = await p.queues.triage.priorities.next(A, 'slow-triage'); // its add is in flight…
    await add(p, A);
    expect(await take(1)).toEqual([A]);
    // …so B is numbered ahead of the slow job's round, not behind it.
    expect(await add(p, B)).toBe(slow - 1);
    await p.queues.triage.add('triage', { runId: 'slow', installationId: A } as RunJobData, {
      jobId: 'slow-triage',
      priority: slow,
    });
    // B, then the slow job in its own round, then A's next.
    expect(await order(p)).toEqual([B, A, A]);
    expect((await p.queues.triage.getJobs(['prioritized'], 0, -1, true))[1]!.id).toBe(
      'slow-triage',
    );
  });

  it('recovers from numbers given to jobs never added (a crash): an idle queue forgets them', async () => {
    const p = open();
    await add(p, A);
    // A producer numbered three jobs and died before adding them.
    for (const id of ['lost-1', 'lost-2', 'lost-3']) await p.queues.triage.priorities.next(A, id);
    expect(await add(p, B)).toBe(1);
    expect(await add(p, A)).toBe(5); // A lost three rounds, once…
    await take(3);
    // …and once its numbers are given up (a minute later: their dates are moved back here), the
    // queue is idle again and starts A and B in the same round.
    const since = `${fairShareKey(prefix, 'triage')}:pending-since`;
    const lost = await p.redis.zrange(since, 0, -1);
    expect(lost).toHaveLength(3);
    for (const job of lost) await p.redis.zadd(since, 0, job);
    // A's first job after the idle moment opens a round; B's first joins the one before it.
    const a = await add(p, A);
    expect(await add(p, B)).toBe(a! - 1);
    const state = await p.redis.hkeys(fairShareKey(prefix, 'triage'));
    expect(state.sort()).toEqual([`i:${A}`, `i:${B}`, 'top', 'vt']);
    // Only the two jobs just added are pending, until their adds are seen to have landed.
    expect(await p.redis.zcard(since)).toBeLessThanOrEqual(2);
  });

  it("stays within BullMQ's bound, and renumbers from 1 at the first idle moment past the threshold", async () => {
    const p = open();
    await add(p, A);
    worker = new Worker('triage', null, { connection: { url: REDIS_URL }, prefix });
    const token = randomUUID();
    const running = await worker.getNextJob(token);
    // Nothing waits, one job runs: the round is the largest number given.
    await p.redis.hset(fairShareKey(prefix, 'triage'), 'top', MAX_PRIORITY - 2);
    expect(await add(p, B)).toBe(MAX_PRIORITY - 2);
    expect(await add(p, B)).toBe(MAX_PRIORITY - 1);
    expect(await add(p, B)).toBe(MAX_PRIORITY);
    expect(await add(p, B)).toBe(MAX_PRIORITY); // clamped: FIFO from here, never refused
    await running.moveToCompleted('done', token, false);
    await take(4);
    expect(MAX_PRIORITY).toBeGreaterThan(RENUMBER_AFTER);
    expect(await add(p, C)).toBe(1);
  });

  it('orders jobs as they were added when fair share is off (every job priority 1)', async () => {
    const p = open('fifo');
    for (let i = 0; i < 3; i++) await add(p, A);
    expect(await add(p, B)).toBe(1);
    expect(await order(p)).toEqual([A, A, A, B]);
  });
});
