/**
 * Durable intake: a webhook is answered only once its trigger is persisted as a job (queue
 * `trigger`), within a deadline so a slow Redis gets a 503 (GitHub shows a failed delivery, and
 * the reconciler asks for it again) rather than a hung connection. The job id is derived from the
 * trigger's key, so a redelivery while the job is kept adds nothing.
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

export function createTriggerIntake(options: {
  queue: Queue<TriggerJobData>;
  /** Longest wait for Redis before answering 503. */
  timeoutMs?: number;
}): TriggerIntake {
  const timeoutMs = options.timeoutMs ?? 3000;
  return {
    async accept(data) {
      const deadline = createDeadline(timeoutMs);
      const jobId = triggerJobId(data.triggerKey);
      try {
        await deadline.race(options.queue.add(TRIGGER_QUEUE, data, { jobId }), 'enqueue');
        return { jobId };
      } finally {
        deadline.clear();
      }
    },
  };
}
