/**
 * The BullMQ processor around one stage: the guards every job passes (shutdown, an installation
 * the app lost, installation rate limit, a run that has already ended: `stage-job/guards/`), the status comment, the stage
 * itself, then the next job (or the end of the run). Decides retry vs. permanent failure through
 * classifyError, and hands a job interrupted by shutdown back to the queue untouched.
 */
import type { Job } from 'bullmq';
import { advanceRun } from './stage-job/advance-run.js';
import { STAGE_JOB_GUARDS } from './stage-job/guards/stage-job-guards.js';
import { openGate, type StageJobResult } from './stage-job/job-gate.js';
import { stageContext } from './stage-job/stage-context.js';
import { onStageError } from './stage-job/stage-failure.js';
import { announceStage, stageStatus } from './stage-job/stage-status.js';
import type { StageRuntime } from './stage-runtime.js';
import type { RunJobData, StageName, StageOutcome } from '../runs/types.js';

export type { StageJobResult } from './stage-job/job-gate.js';

export function createStageJobProcessor(stage: StageName, rt: StageRuntime) {
  return async (
    job: Job<RunJobData>,
    token?: string,
    bullSignal?: AbortSignal,
  ): Promise<StageJobResult> => {
    const gate = openGate(job, token, stage, rt);
    for (const guard of STAGE_JOB_GUARDS) {
      const stopped = await guard(gate);
      if (stopped) return stopped;
    }
    const client = await gate.client();
    const status = stageStatus(gate, client);
    await announceStage(gate, client, status);

    const signal = bullSignal ? AbortSignal.any([rt.shutdown, bullSignal]) : rt.shutdown;
    const ctx = stageContext(gate, client, status, signal);
    const started = performance.now();
    const seconds = (): number => (performance.now() - started) / 1000;
    let outcome: StageOutcome;
    try {
      outcome = await rt.processors[stage](job.data, ctx);
    } catch (err) {
      return onStageError(gate, err, { client, status, signal, seconds: seconds() });
    }

    const durationMs = Math.round(seconds() * 1000);
    status.comment.setStage(stage, { state: 'done', durationMs });
    if (outcome.status) status.comment.merge(outcome.status);
    const outcomeLabel = outcome.kind === 'stop' ? 'stopped' : 'completed';
    rt.metrics.jobs.inc({ stage, outcome: outcomeLabel });
    rt.metrics.stageDuration.observe({ stage, outcome: outcomeLabel }, durationMs / 1000);
    return advanceRun(gate, outcome, client, status);
  };
}
