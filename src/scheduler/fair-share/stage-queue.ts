/**
 * A stage queue: BullMQ's queue that also knows how its jobs are ordered between installations.
 * `fair` (the app's) numbers each job by fair-priority.ts; `fifo` gives every job priority 1,
 * which BullMQ takes in the order added: the order before fair share, kept for the benchmark.
 */
import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { StageJobData } from '../../runs/run-record.js';
import type { StageName } from '../../runs/types.js';
import { createFairPriority, fairShareKey, type FairPriority } from './fair-priority.js';

export type JobOrder = 'fair' | 'fifo';

export interface StageQueueOptions {
  connection: Redis;
  prefix: string;
  defaultJobOptions: JobsOptions;
  order: JobOrder;
}

export class StageQueue extends Queue<StageJobData> {
  /** How this queue numbers its jobs (`fifo`: all 1). */
  readonly priorities: FairPriority;

  constructor(name: StageName, options: StageQueueOptions) {
    const { order, ...queueOptions } = options;
    super(name, queueOptions);
    this.priorities =
      order === 'fair'
        ? createFairPriority(options.connection, fairShareKey(options.prefix, name), this.toKey)
        : { next: () => Promise.resolve(1), landed: () => Promise.resolve() };
  }
}
