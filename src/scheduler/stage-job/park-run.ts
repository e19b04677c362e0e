/**
 * A run waits: for a person (plan approval) or for money (a budget), or for an LLM endpoint that
 * stayed down. Its record keeps where it resumes (`resumeAt`: this stage from its checkpoint, or
 * the next one when this stage's output is kept), the status comment says why and what to answer,
 * and the issue stays locked to it until the parking expires (scheduler/parked-runs.ts).
 */
import { LOCK_TTL_MS, runKeyOf } from '../../runs/run-registry.js';
import { nextStage } from '../../runs/run-addressing.js';
import type { RunParking } from '../../runs/run-record.js';
import {
  attemptEnded,
  parked,
  stageOutput,
  stageWaiting,
  type AttemptAccount,
} from '../../runs/run-transitions.js';
import type { StageOutcome } from '../../runs/types.js';
import type { AnsweredStage } from './advance-run.js';
import type { JobGate, StageJobResult } from './job-gate.js';

/** How long a parked run waits for an answer before it ends with a note. */
export const DEFAULT_PARK_TTL_MS = 7 * 24 * 3600_000;

export async function parkRun(
  gate: JobGate,
  park: Extract<StageOutcome, { kind: 'park' }>,
  answered: Pick<AnsweredStage, 'status'> & { attempt?: AttemptAccount },
): Promise<StageJobResult> {
  const { rt, stage, log } = gate;
  const { status, attempt } = answered;
  const done = park.output !== undefined;
  const resumeAt = done ? (nextStage(gate.run, stage) ?? stage) : stage;
  const now = Date.now();
  const parking: RunParking = {
    reason: park.reason,
    resumeAt,
    message: park.message,
    at: now,
    expiresAt: now + (rt.parkTtlMs ?? DEFAULT_PARK_TTL_MS),
    ...(park.cap ? { cap: park.cap } : {}),
  };
  if (park.status) status.comment.merge(park.status);
  if (!done) status.comment.setStage(stage, { state: 'waiting' });
  else status.comment.setStage(resumeAt, { state: 'waiting' });
  status.comment.setOutcome({ kind: 'parked', message: park.message });
  const commentId = rt.status.commentId(gate.run.runId) ?? gate.run.statusCommentId;
  const record = await rt.runs.update(gate.run.runId, (r) => {
    // Parked before it started (a guard): the stage waits without an attempt.
    const counted = attempt
      ? attemptEnded(r, stage, done ? 'done' : 'parked', attempt, now)
      : stageWaiting(r, stage);
    const kept = done
      ? stageOutput(counted, stage, park.output, undefined, status.comment.facts())
      : counted;
    return {
      ...parked(kept, parking, status.comment.facts()),
      ...(commentId === undefined ? {} : { statusCommentId: commentId }),
    };
  });
  gate.setRun(record);
  // The issue stays this run's while it waits (a new trigger hears it is busy).
  await rt.registry
    .refresh(runKeyOf(record), record.runId, parking.expiresAt - now + LOCK_TTL_MS)
    .catch((err: unknown) => log.warn({ err }, 'could not extend the issue lock'));
  status.show();
  await rt.status.flush(record.runId);
  rt.metrics.jobs.inc({ stage, outcome: 'parked' });
  log.info({ reason: park.reason, resumeAt, expiresAt: parking.expiresAt }, 'run parked');
  return { stage, outcome: 'park' };
}
