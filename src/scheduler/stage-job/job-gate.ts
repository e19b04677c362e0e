/**
 * What the guards in front of a stage job see: the job, its stage and attempt, the process's
 * runtime, and the installation's client, asked for once and only by the first who needs it (a
 * job a guard turns away before that never spends a token).
 */
import type { Job } from 'bullmq';
import type { InstallationClient } from '../../github/installation-auth.js';
import type { Logger } from '../../logger.js';
import type { StageRuntime } from '../stage-runtime.js';
import type { RunJobData, StageName } from '../../runs/types.js';

export interface StageJobResult {
  stage: StageName;
  outcome: 'continue' | 'stop';
  next?: string;
}

export interface JobGate {
  job: Job<RunJobData>;
  /** BullMQ's lock token of the job (needed to move it). */
  token: string | undefined;
  stage: StageName;
  attempt: number;
  log: Logger;
  rt: StageRuntime;
  client: () => Promise<InstallationClient>;
}

/**
 * A check a job passes before its stage runs: `undefined` lets it through; a result ends the job
 * there (it completes); a thrown `DelayedError` has moved it back to the queue.
 */
export type StageJobGuard = (gate: JobGate) => Promise<StageJobResult | undefined>;

export function openGate(
  job: Job<RunJobData>,
  token: string | undefined,
  stage: StageName,
  rt: StageRuntime,
): JobGate {
  const attempt = job.attemptsMade + 1;
  const log = rt.log.child({ runId: job.data.runId, stage, attempt, jobId: job.id });
  let client: Promise<InstallationClient> | undefined;
  return {
    job,
    token,
    stage,
    attempt,
    log,
    rt,
    client: () => (client ??= rt.auth(job.data.installationId)),
  };
}
