/**
 * Resuming a parked run: one compare-and-set on its record (the parking cleared, the resumption
 * kept with the trigger that asked), then its stage queued again under the resumption's job id.
 * A command delivered twice, or a trigger job retried after a crash between the two writes,
 * finds its own resumption and queues the same job id again: a no-op when it exists.
 */
import type { StageName } from '../contracts.js';
import { stageJobId } from '../runs/run-addressing.js';
import type { ParkReason, Run, RunStore } from '../runs/run-record.js';
import { resumed, type ResumeRequest } from '../runs/run-transitions.js';
import { addStageJob } from '../scheduler/fair-share/add-stage-job.js';
import type { StageQueues } from '../scheduler/stage-queues.js';

export type ResumeResult =
  /** `jobId`: the job queued now (absent: it was queued before, for the same command). */
  | { kind: 'resumed'; runId: string; stage: StageName; jobId?: string }
  /** No run is parked there, or (`parkedFor`) one is, for a reason this command does not answer. */
  | { kind: 'not-parked'; parkedFor?: ParkReason };

export async function resumeParkedRun(
  deps: { runs: RunStore; queues: StageQueues },
  where: { repoFullName: string; conversation: number; runId?: string },
  request: ResumeRequest,
): Promise<ResumeResult> {
  const runId = where.runId ?? (await deps.runs.parkedOn(where.repoFullName, where.conversation));
  if (!runId) return { kind: 'not-parked' };
  const record = await deps.runs.update(runId, (run) =>
    resumable(run, request) ? resumed(run, request, Date.now()) : undefined,
  );
  const mine = record.resumes.find((r) => r.key === request.key);
  if (!mine || record.ending || record.parked) {
    return record.parked && !record.ending
      ? { kind: 'not-parked', parkedFor: record.parked.reason }
      : { kind: 'not-parked' };
  }
  // Asked again after the stage already went on from this resumption: nothing to queue.
  const latest = record.resumes[record.resumes.length - 1] === mine;
  const started = (record.stages[mine.stage]?.lastStartedAt ?? 0) >= mine.at;
  if (!latest || started) return { kind: 'resumed', runId, stage: mine.stage };
  // The resumption's own job id: its number in the list, as `stageJobId` counts.
  const upTo = { runId, resumes: record.resumes.slice(0, record.resumes.indexOf(mine) + 1) };
  const jobId = stageJobId(upTo, mine.stage);
  await addStageJob(deps.queues, mine.stage, { runId }, jobId, record.installationId);
  return { kind: 'resumed', runId, stage: mine.stage, jobId };
}

function resumable(run: Run, request: ResumeRequest): boolean {
  if (run.ending || !run.parked) return false;
  if (run.resumes.some((r) => r.key === request.key)) return false;
  return !request.reasons || request.reasons.includes(run.parked.reason);
}
