/**
 * What the guards in front of a stage job see: the job, its stage and attempt, the run's record
 * as the job found it, the process's runtime, and the installation's client, asked for once and
 * only by the first who needs it (a job a guard turns away before that never spends a token).
 */
import type { Job } from 'bullmq';
import type { InstallationClient } from '../../github/installation-auth.js';
import type { Logger } from '../../logger.js';
import type { Run, StageJobData } from '../../runs/run-record.js';
import type { StageRuntime } from '../stage-runtime.js';
import type { StageName } from '../../runs/types.js';

export interface StageJobResult {
  stage: StageName;
  outcome: 'continue' | 'stop' | 'park';
  next?: string;
}

export interface JobGate {
  job: Job<StageJobData>;
  /** BullMQ's lock token of the job (needed to move it). */
  token: string | undefined;
  stage: StageName;
  attempt: number;
  log: Logger;
  rt: StageRuntime;
  /** The run's record when the job started; `setRun` keeps it current after each write. */
  run: Run;
  setRun(run: Run): void;
  client: () => Promise<InstallationClient>;
}

/**
 * A check a job passes before its stage runs: `undefined` lets it through; a result ends the job
 * there (it completes); a thrown `DelayedError` has moved it back to the queue.
 */
export type StageJobGuard = (gate: JobGate) => Promise<StageJobResult | undefined>;

/** The gate of a job, or undefined when its run is not in the store (expired or never written). */
export async function openGate(
  job: Job<StageJobData>,
  token: string | undefined,
  stage: StageName,
  rt: StageRuntime,
): Promise<JobGate | undefined> {
  const attempt = job.attemptsMade + 1;
  const log = rt.log.child({ runId: job.data.runId, stage, attempt, jobId: job.id });
  const run = await rt.runs.get(job.data.runId);
  if (!run) {
    log.error('the run of this job is not in the run store (expired?): nothing to do');
    return undefined;
  }
  let client: Promise<InstallationClient> | undefined;
  const gate: JobGate = {
    job,
    token,
    stage,
    attempt,
    log,
    rt,
    run,
    setRun: (next) => {
      gate.run = next;
    },
    client: () => (client ??= rt.auth(run.installationId)),
  };
  return gate;
}
