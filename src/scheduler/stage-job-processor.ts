/**
 * The BullMQ processor around one stage: the job names its run; the run's record is read from the
 * run store; the guards every job passes (shutdown, an installation the app lost, installation
 * rate limit, a run that has ended or is parked: `stage-job/guards/`), the status comment, the
 * stage itself, then the next job (or the end of the run, or its parking). Decides retry vs.
 * permanent failure through classifyError, and hands a job interrupted by shutdown back to the
 * queue untouched.
 */
import type { Job } from 'bullmq';
import { stageStarted } from '../runs/run-transitions.js';
import type { StageJobData } from '../runs/run-record.js';
import { attemptAccount } from './stage-job/attempt-account.js';
import { advanceRun } from './stage-job/advance-run.js';
import { STAGE_JOB_GUARDS } from './stage-job/guards/stage-job-guards.js';
import { openGate, type StageJobResult } from './stage-job/job-gate.js';
import { stageContext } from './stage-job/stage-context.js';
import { onStageError } from './stage-job/stage-failure.js';
import { announceStage, stageStatus } from './stage-job/stage-status.js';
import type { StageRuntime } from './stage-runtime.js';
import type { StageName, StageOutcome } from '../runs/types.js';

export type { StageJobResult } from './stage-job/job-gate.js';

export function createStageJobProcessor(stage: StageName, rt: StageRuntime) {
  return async (
    job: Job<StageJobData>,
    token?: string,
    bullSignal?: AbortSignal,
  ): Promise<StageJobResult> => {
    const gate = await openGate(job, token, stage, rt);
    if (!gate) return { stage, outcome: 'stop' };
    for (const guard of STAGE_JOB_GUARDS) {
      const stopped = await guard(gate);
      if (stopped) return stopped;
    }
    const client = await gate.client();
    gate.setRun(await rt.runs.update(gate.run.runId, (r) => stageStarted(r, stage, Date.now())));
    const status = stageStatus(gate, client);
    await announceStage(gate, client, status);

    const signal = bullSignal ? AbortSignal.any([rt.shutdown, bullSignal]) : rt.shutdown;
    const account = attemptAccount();
    const ctx = stageContext(gate, client, status, signal, account.record);
    let outcome: StageOutcome;
    try {
      outcome = await rt.processors[stage](gate.run, ctx);
    } catch (err) {
      return onStageError(gate, err, { client, status, signal, account: account.close() });
    }

    const attempt = account.close();
    const seconds = attempt.durationMs / 1000;
    status.comment.setStage(stage, { state: 'done', durationMs: attempt.durationMs });
    if (outcome.status) status.comment.merge(outcome.status);
    const outcomeLabel = { stop: 'stopped', park: 'parked', continue: 'completed' }[outcome.kind];
    rt.metrics.jobs.inc({ stage, outcome: outcomeLabel });
    rt.metrics.stageDuration.observe({ stage, outcome: outcomeLabel }, seconds);
    return advanceRun(gate, outcome, { client, status, attempt });
  };
}
