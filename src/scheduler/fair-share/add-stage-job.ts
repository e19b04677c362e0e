import type { Job } from 'bullmq';
import type { StageJobData } from '../../runs/run-record.js';
import type { StageName } from '../../runs/types.js';
import type { StageQueues } from '../stage-queues.js';

/**
 * The one way a stage job is queued (a run's first stage at intake, each next stage after the one
 * before): with the priority that gives installations a fair share of the stage's queue. BullMQ
 * takes a job without priority before every prioritized one, so no stage job is added otherwise.
 */
export async function addStageJob(
  queues: StageQueues,
  stage: StageName,
  data: StageJobData,
  jobId: string,
  installationId: number,
): Promise<Job<StageJobData>> {
  const queue = queues[stage];
  const priority = await queue.priorities.next(installationId, jobId);
  const job = await queue.add(stage, data, { jobId, priority });
  // Not awaited: until it lands the number only holds its round a moment longer.
  queue.priorities.landed(jobId).catch(() => undefined);
  return job;
}
