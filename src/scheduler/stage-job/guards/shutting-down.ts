import type { StageJobGuard } from '../job-gate.js';
import { requeue } from '../requeue.js';

/** A worker that is shutting down starts nothing: the job goes back to the queue untouched. */
export const refuseWhileShuttingDown: StageJobGuard = async ({ rt, job, token, stage }) => {
  if (!rt.shutdown.aborted) return undefined;
  rt.metrics.jobs.inc({ stage, outcome: 'requeued' });
  return requeue(job, token);
};
