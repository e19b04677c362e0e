/**
 * The Redis side shared by web and worker processes: the producer connections (they fail fast
 * when Redis is away, so intake can answer 503 instead of queueing commands in memory; the
 * trigger queue has its own), the stage queues, the run registry and the run store. Checked
 * first: Redis must answer and must not evict keys.
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { DEFAULT_ADMISSION_RETRY } from '../../intake/admission-worker.js';
import { checkRedis, type RedisCheck } from '../../scheduler/check-redis.js';
import { createRunRegistry, type RunRegistry } from '../../runs/run-registry.js';
import type { RunStore } from '../../runs/run-record.js';
import { createRedisRunStore } from '../../runs/redis-run-store.js';
import { createPrOutcomeStore, type PrOutcomeStore } from '../../runs/pr-outcomes.js';
import { outcomesIntoRuns } from '../../runs/outcomes-into-runs.js';
import {
  closeStageQueues,
  createStageQueues,
  jobOptions,
  type RetryPolicy,
  type StageQueues,
} from '../../scheduler/stage-queues.js';
import { TRIGGER_QUEUE, type TriggerJobData } from '../../intake/trigger-types.js';

export interface QueueBackend {
  redis: Redis;
  queues: StageQueues;
  /** Triggers waiting for admission (the first job of every run). */
  triggers: Queue<TriggerJobData>;
  registry: RunRegistry;
  /** Every run's record (run-record.ts): stage jobs carry only its id. */
  runs: RunStore;
  /** What became of the app's PRs (merged, closed, reverted). */
  outcomes: PrOutcomeStore;
  check: RedisCheck;
  close(): Promise<void>;
}

export async function openQueueBackend(options: {
  redisUrl: string;
  prefix: string;
  retry?: RetryPolicy;
  admissionRetry?: RetryPolicy;
}): Promise<QueueBackend> {
  const check = await checkRedis(options.redisUrl);
  // Concurrent stage and admission commands leave in one write instead of one each.
  const redis = await producerConnection(options.redisUrl, true);
  // The trigger queue batches its adds itself (trigger-intake.ts): no auto-pipelining there.
  const intake = await producerConnection(options.redisUrl, false).catch((err: unknown) => {
    redis.disconnect();
    throw err;
  });
  const queues = createStageQueues(redis, options.prefix, options.retry);
  const triggers = new Queue<TriggerJobData>(TRIGGER_QUEUE, {
    connection: intake,
    prefix: options.prefix,
    // Kept 3 days (GitHub's redelivery window): a redelivered trigger finds its job and adds none.
    defaultJobOptions: {
      ...jobOptions(options.admissionRetry ?? DEFAULT_ADMISSION_RETRY),
      removeOnComplete: { age: 3 * 24 * 3600, count: 20_000 },
    },
  });
  const runs = createRedisRunStore(redis, options.prefix);
  return {
    redis,
    queues,
    triggers,
    registry: createRunRegistry(redis, options.prefix),
    runs,
    outcomes: outcomesIntoRuns(createPrOutcomeStore(redis, options.prefix), runs),
    check,
    async close() {
      await Promise.all([closeStageQueues(queues), triggers.close()]);
      await Promise.all([redis, intake].map((r) => r.quit().catch(() => r.disconnect())));
    },
  };
}

/**
 * A connection that fails fast when Redis is away, so intake can answer 503 instead of queueing
 * commands in memory.
 */
async function producerConnection(redisUrl: string, autoPipelining: boolean): Promise<Redis> {
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 3000,
    enableAutoPipelining: autoPipelining,
  });
  redis.on('error', () => undefined); // reconnects on its own; callers see failed commands
  await redis.connect();
  return redis;
}
