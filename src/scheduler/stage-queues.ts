/**
 * The stage queues, sharing one producer connection and one key prefix; their jobs are ordered
 * fairly between installations (fair-share/), and queued only through `addStageJob`.
 */
import type { JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { byStage } from '../contracts.js';
import { STAGES, type StageName } from '../runs/types.js';
import { StageQueue, type JobOrder } from './fair-share/stage-queue.js';

/** One queue per stage; a job carries only its run's id (the run is in the run store). */
export type StageQueues = Record<StageName, StageQueue>;

export interface RetryPolicy {
  /** Attempts per stage job, the first included. */
  attempts: number;
  /** First backoff; doubles each retry (BullMQ `exponential`). */
  backoffMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, backoffMs: 10_000 };

export function jobOptions(retry: RetryPolicy): JobsOptions {
  return {
    attempts: retry.attempts,
    backoff: { type: 'exponential', delay: retry.backoffMs },
    // Keep finished jobs for the dashboard and post-mortems, bounded in count and age.
    removeOnComplete: { age: 7 * 24 * 3600, count: 5000 },
    removeOnFail: { age: 30 * 24 * 3600, count: 5000 },
  };
}

export function createStageQueues(
  connection: Redis,
  prefix: string,
  retry: RetryPolicy = DEFAULT_RETRY,
  order: JobOrder = 'fair',
): StageQueues {
  const make = (name: StageName): StageQueue =>
    new StageQueue(name, { connection, prefix, defaultJobOptions: jobOptions(retry), order });
  return byStage(make);
}

export async function closeStageQueues(queues: StageQueues): Promise<void> {
  await Promise.all(STAGES.map((stage) => queues[stage].close()));
}
