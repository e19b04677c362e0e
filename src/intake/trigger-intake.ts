/**
 * Durable intake: a webhook is answered only once its trigger is persisted as a job (queue
 * `trigger`), within a deadline so a slow Redis gets a 503 (GitHub shows a failed delivery, and
 * the reconciler asks for it again) rather than a hung connection. The job id is derived from the
 * trigger's key, so a redelivery while the job is kept adds nothing.
 *
 * The triggers accepted in one turn of the event loop leave in one Redis write: one alone is a
 * plain `add`, several one `addBulk` (one pipeline). The queue's connection has no ioredis
 * auto-pipelining: that built a pipeline, copying every BullMQ script onto it, for each lone
 * delivery (bench:webhooks, issue #38).
 */
import { createHash } from 'node:crypto';
import type { Queue } from 'bullmq';
import { TRIGGER_QUEUE, type TriggerJobData } from './trigger-types.js';
import { createDeadline } from '../scheduler/with-deadline.js';

export interface TriggerIntake {
  /** Resolves once the trigger is in Redis; QueueUnavailableError (503) when it could not be. */
  accept(data: TriggerJobData): Promise<{ jobId: string }>;
}

/** BullMQ job id of a trigger (custom ids may not contain `:`). */
export function triggerJobId(triggerKey: string): string {
  return `trigger-${createHash('sha256').update(triggerKey).digest('hex').slice(0, 24)}`;
}

interface Pending {
  data: TriggerJobData;
  jobId: string;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Adds what was queued during this turn of the event loop: one write to Redis. */
function addTogether(queue: Queue<TriggerJobData>, batch: Pending[]): void {
  const [one, ...more] = batch;
  if (!one) return;
  const added =
    more.length === 0
      ? queue.add(TRIGGER_QUEUE, one.data, { jobId: one.jobId })
      : queue.addBulk(
          batch.map((p) => ({ name: TRIGGER_QUEUE, data: p.data, opts: { jobId: p.jobId } })),
        );
  added.then(
    () => batch.forEach((p) => p.resolve()),
    (err: unknown) => batch.forEach((p) => p.reject(err)),
  );
}

export function createTriggerIntake(options: {
  queue: Queue<TriggerJobData>;
  /** Longest wait for Redis before answering 503. */
  timeoutMs?: number;
}): TriggerIntake {
  const timeoutMs = options.timeoutMs ?? 3000;
  let pending: Pending[] = [];
  const flush = (): void => {
    const batch = pending;
    pending = [];
    addTogether(options.queue, batch);
  };
  const enqueue = (data: TriggerJobData, jobId: string): Promise<void> =>
    new Promise((resolve, reject) => {
      // After the I/O callbacks of this turn: the deliveries read together are added together.
      if (pending.push({ data, jobId, resolve, reject }) === 1) setImmediate(flush);
    });
  return {
    async accept(data) {
      const deadline = createDeadline(timeoutMs);
      const jobId = triggerJobId(data.triggerKey);
      try {
        await deadline.race(enqueue(data, jobId), 'enqueue');
        return { jobId };
      } finally {
        deadline.clear();
      }
    },
  };
}
