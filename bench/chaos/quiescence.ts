/**
 * Waits until the system is idle: the trigger queue (admission) and every stage queue of the
 * bench's prefix have nothing waiting,
 * delayed or active for a few polls in a row (a job of a SIGKILLed worker stays active until its
 * lock expires and another worker takes it back as stalled), or the deadline passes.
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { TRIGGER_QUEUE } from '../../src/intake/trigger-types.js';
import { STAGES } from '../../src/runs/types.js';

/** The queues a run goes through: admission, then the stages. */
const QUEUES = [TRIGGER_QUEUE, ...STAGES] as const;
type StageName = (typeof QUEUES)[number];

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const BUSY = ['active', 'wait', 'delayed', 'prioritized', 'waiting-children'] as const;

export interface QueueWatch {
  /** Jobs not yet finished per stage, or undefined when Redis did not answer. */
  busy(): Promise<Record<StageName, number> | undefined>;
  /** Finished jobs per state and stage (after the run, for the table). */
  finished(): Promise<Record<'completed' | 'failed', number> | undefined>;
  close(): Promise<void>;
}

export function watchQueues(redisUrl: string, prefix: string): QueueWatch {
  const connection = new Redis(redisUrl, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: () => 500,
  });
  connection.on('error', () => undefined);
  const queues = QUEUES.map((name) => new Queue(name, { connection, prefix }));
  for (const q of queues) q.on('error', () => undefined);
  const withTimeout = async <T>(work: Promise<T>): Promise<T | undefined> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), 2000);
    });
    try {
      return await Promise.race([work.catch(() => undefined), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    async busy() {
      const counts = await withTimeout(Promise.all(queues.map((q) => q.getJobCounts(...BUSY))));
      if (!counts) return undefined;
      return Object.fromEntries(
        QUEUES.map((stage, i) => [
          stage,
          Object.values(counts[i] ?? {}).reduce((sum, n) => sum + n, 0),
        ]),
      ) as Record<StageName, number>;
    },
    async finished() {
      const counts = await withTimeout(
        // Stage jobs only (the trigger queue's are admissions).
        Promise.all(queues.slice(1).map((q) => q.getJobCounts('completed', 'failed'))),
      );
      if (!counts) return undefined;
      return {
        completed: counts.reduce((sum, c) => sum + (c.completed ?? 0), 0),
        failed: counts.reduce((sum, c) => sum + (c.failed ?? 0), 0),
      };
    },
    async close() {
      await Promise.all(queues.map((q) => q.close().catch(() => undefined)));
      connection.disconnect();
    },
  };
}

/**
 * Polls until `quiet()` holds `polls` times in a row, one second apart, or `deadline` (epoch ms).
 * Returns whether it got quiet, and the last busy counts.
 */
export async function waitQuiet(
  watch: QueueWatch,
  ready: () => boolean,
  deadline: number,
  onPoll?: (busy: Record<StageName, number> | undefined) => void,
  polls = 4,
): Promise<{ quiet: boolean; busy: Record<StageName, number> | undefined }> {
  let inARow = 0;
  let last: Record<StageName, number> | undefined;
  while (Date.now() < deadline) {
    last = await watch.busy();
    onPoll?.(last);
    const idle = !!last && ready() && Object.values(last).every((n) => n === 0);
    inARow = idle ? inARow + 1 : 0;
    if (inARow >= polls) return { quiet: true, busy: last };
    await sleep(1000);
  }
  return { quiet: false, busy: last };
}
