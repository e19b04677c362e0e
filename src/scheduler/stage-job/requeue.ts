import { DelayedError, type Job } from 'bullmq';
import type { StageJobData } from '../../runs/run-record.js';

/**
 * Shutdown hands a job back as delayed, not waiting: a closing worker may still have a fetch in
 * flight that would take a waiting job straight back.
 */
const REQUEUE_DELAY_MS = 1000;

/** Back to the queue without using an attempt; another worker starts it over. */
export async function requeue(job: Job<StageJobData>, token: string | undefined): Promise<never> {
  await job.moveToDelayed(Date.now() + REQUEUE_DELAY_MS, token);
  throw new DelayedError();
}
