import type { InstallationClient } from '../../github/installation-auth.js';
import { finishRun } from '../../runs/end-run.js';
import { addStageJob } from '../fair-share/add-stage-job.js';
import { jobIdFor, nextStage } from '../../runs/run-addressing.js';
import type { RunJobData, StageOutcome } from '../../runs/types.js';
import type { JobGate, StageJobResult } from './job-gate.js';
import type { StageStatus } from './stage-status.js';

/** After a stage answered: the run ends (a stop, or the route's last stage) or its next job is queued. */
export async function advanceRun(
  gate: JobGate,
  outcome: StageOutcome,
  client: InstallationClient,
  status: StageStatus,
): Promise<StageJobResult> {
  const { rt, stage, log } = gate;
  const data = gate.job.data;
  const next = outcome.kind === 'continue' ? nextStage(data, stage) : undefined;
  if (outcome.kind === 'stop' || !next) {
    const stop = outcome.kind === 'stop' ? outcome : undefined;
    await finishRun(rt, data, client, status.comment, log, stop);
    return { stage, outcome: outcome.kind };
  }
  status.comment.setStage(next, { state: 'queued' });
  // Not awaited: the next stage's own versions outrank this one (status-publisher.ts).
  status.show();
  const nextData: RunJobData = {
    ...data,
    checkpoint: undefined, // this stage's; the next stage starts without one
    status: status.comment.facts(),
    outputs: { ...data.outputs, [stage]: outcome.output },
    ...(outcome.kind === 'continue' && outcome.pins
      ? { pins: { ...data.pins, ...outcome.pins } }
      : {}),
  };
  const commentId = rt.status.commentId(data.runId) ?? data.statusCommentId;
  if (commentId !== undefined) nextData.statusCommentId = commentId;
  const nextId = jobIdFor(data.runId, next);
  await addStageJob(rt.queues, next, nextData, nextId, data.installationId);
  return { stage, outcome: 'continue', next: nextId };
}
