import type { InstallationClient } from '../../github/installation-auth.js';
import { finishRun } from '../../runs/end-run.js';
import { addStageJob } from '../fair-share/add-stage-job.js';
import { nextStage, stageJobId } from '../../runs/run-addressing.js';
import { attemptEnded, stageOutput, type AttemptAccount } from '../../runs/run-transitions.js';
import type { StageOutcome } from '../../runs/types.js';
import type { JobGate, StageJobResult } from './job-gate.js';
import { parkRun } from './park-run.js';
import type { StageStatus } from './stage-status.js';

export interface AnsweredStage {
  client: InstallationClient;
  status: StageStatus;
  attempt: AttemptAccount;
}

/**
 * After a stage answered: the run ends (a stop, or the route's last stage), parks (the stage said
 * so, or the runtime's policy after it: plan approval), or its next job is queued.
 */
export async function advanceRun(
  gate: JobGate,
  outcome: StageOutcome,
  answered: AnsweredStage,
): Promise<StageJobResult> {
  const { rt, stage, log } = gate;
  const { client, status, attempt } = answered;
  if (outcome.kind === 'park') return parkRun(gate, outcome, answered);
  const next = outcome.kind === 'continue' ? nextStage(gate.run, stage) : undefined;
  if (outcome.kind === 'continue' && next && rt.parkAfter) {
    const parking = await rt.parkAfter(gate.run, stage, outcome.output);
    if (parking)
      return parkRun(gate, { kind: 'park', ...parking, output: outcome.output }, answered);
  }
  const runId = gate.run.runId;
  const commentId = rt.status.commentId(runId) ?? gate.run.statusCommentId;
  if (next) status.comment.setStage(next, { state: 'queued' });
  const record = await rt.runs.update(runId, (r) => ({
    ...stageOutput(
      attemptEnded(r, stage, outcome.kind === 'stop' ? 'stopped' : 'done', attempt, Date.now()),
      stage,
      outcome.output,
      outcome.kind === 'continue' ? outcome.pins : undefined,
      status.comment.facts(),
    ),
    ...(commentId === undefined ? {} : { statusCommentId: commentId }),
  }));
  gate.setRun(record);
  if (outcome.kind === 'stop' || !next) {
    const stop = outcome.kind === 'stop' ? outcome : undefined;
    await finishRun(rt, record, client, status.comment, log, stop);
    return { stage, outcome: outcome.kind };
  }
  // Not awaited: the next stage's own versions outrank this one (status-publisher.ts).
  status.show();
  const nextId = stageJobId(record, next);
  await addStageJob(rt.queues, next, { runId }, nextId, record.installationId);
  return { stage, outcome: 'continue', next: nextId };
}
