/**
 * The Redis side shared by web and worker processes: one producer connection (fails fast when
 * Redis is away, so intake can answer 503 instead of queueing commands in memory), the stage
 * queues and the run registry. Checked first: Redis must answer and must not evict keys.
 */
import { Redis } from 'ioredis';
import { checkRedis, type RedisCheck } from '../queue/check-redis.js';
import { createRunRegistry, type RunRegistry } from '../queue/run-registry.js';
import {
  closeStageQueues,
  createStageQueues,
  type RetryPolicy,
  type StageQueues,
} from '../queue/stage-queues.js';

export interface QueueBackend {
  redis: Redis;
  queues: StageQueues;
  registry: RunRegistry;
  check: RedisCheck;
  close(): Promise<void>;
}

export async function openQueueBackend(options: {
  redisUrl: string;
  prefix: string;
  retry?: RetryPolicy;
}): Promise<QueueBackend> {
  const check = await checkRedis(options.redisUrl);
  const redis = new Redis(options.redisUrl, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 3000,
    // Concurrent deliveries' commands leave in one write instead of one each.
    enableAutoPipelining: true,
  });
  redis.on('error', () => undefined); // reconnects on its own; callers see failed commands
  await redis.connect();
  const queues = createStageQueues(redis, options.prefix, options.retry);
  return {
    redis,
    queues,
    registry: createRunRegistry(redis, options.prefix),
    check,
    async close() {
      await closeStageQueues(queues);
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
