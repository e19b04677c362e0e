/**
 * Idempotent start of an admitted run: claim the trigger and the issue, enqueue its first stage,
 * record the trigger (and the delivery that brought it). Everything shares one deadline; past it,
 * QueueUnavailableError makes the trigger's job retry, and the retry finds the same run id (it is
 * derived from the trigger's key), so nothing runs twice.
 */
import type { Logger } from '../logger.js';
import { jobIdFor, routeOfFacts, stagesOf } from '../runs/run-addressing.js';
import { newRun, type RunStore } from '../runs/run-record.js';
import type { ResumeRequest } from '../runs/run-transitions.js';
import { resumeParkedRun, type ResumeResult } from './resume-run.js';
import { runKeyOf, type RunRegistry } from '../runs/run-registry.js';
import { addStageJob } from '../scheduler/fair-share/add-stage-job.js';
import type { StageQueues } from '../scheduler/stage-queues.js';
import type { RunJobData } from '../runs/types.js';
import { createDeadline, type Deadline } from '../scheduler/with-deadline.js';

export type IntakeResult =
  | { kind: 'started'; runId: string; jobId: string }
  /** This trigger was handled before (GitHub redelivered it, or its body was sent again). */
  | { kind: 'duplicate'; previous: string }
  /** Another run is active on the issue; `firstReply` says whether to tell the user. */
  | { kind: 'busy'; activeRunId: string; firstReply: boolean };

export interface RunIntake {
  start(data: RunJobData): Promise<IntakeResult>;
  /** Resumes the run parked on an issue or PR (or the run named), if one is. */
  resume(
    where: { repoFullName: string; conversation: number; runId?: string },
    request: ResumeRequest,
  ): Promise<ResumeResult>;
}

export function createRunIntake(options: {
  queues: StageQueues;
  registry: RunRegistry;
  runs: RunStore;
  log: Logger;
  /** Longest wait for Redis before answering 503. */
  timeoutMs?: number;
}): RunIntake {
  const { queues, registry, runs, log } = options;
  const timeoutMs = options.timeoutMs ?? 3000;
  return {
    async start(data) {
      const deadline = createDeadline(timeoutMs);
      try {
        return await startRun(data, deadline);
      } finally {
        deadline.clear();
      }
    },
    resume: (where, request) => resumeParkedRun({ runs, queues }, where, request),
  };

  async function startRun(data: RunJobData, deadline: Deadline): Promise<IntakeResult> {
    const key = runKeyOf(data);
    const claiming = registry.claim(data.triggerKey, key, data.runId);
    const claim = await deadline.race(claiming, 'claim').catch((err: unknown) => {
      // A claim that lands after we gave up would block the issue: undo it when it does.
      claiming
        .then((late) => (late.kind === 'claimed' ? registry.release(key, data.runId) : undefined))
        .catch(() => undefined);
      throw err;
    });
    if (claim.kind === 'duplicate') return claim;
    if (claim.kind === 'busy') {
      const firstReply = await deadline.race(
        registry.firstBusyReply(claim.activeRunId),
        'busy reply',
      );
      return { kind: 'busy', activeRunId: claim.activeRunId, firstReply };
    }
    const first = stagesOf(data)[0]!;
    const jobId = jobIdFor(data.runId, first);
    // The record first: a job never exists without its run. A retry finds it already written.
    await deadline.race(
      runs.create(newRun(data, routeOfFacts(data.facts), Date.now())),
      'record the run',
    );
    // Issued together, the enqueue and the delivery record share one round trip (ioredis
    // pipelines commands sent before the first answer). An enqueue that fails for good takes
    // the record and the claim back, so the redelivery GitHub sends after the 503 runs.
    const adding = addStageJob(queues, first, { runId: data.runId }, jobId, data.installationId);
    const marking = registry.markDelivered([data.triggerKey, data.deliveryId], data.runId);
    const undo = (): void => {
      registry.forget([data.triggerKey, data.deliveryId], key, data.runId).catch(() => undefined);
      runs.discard(data.runId).catch(() => undefined);
    };
    adding.catch(undo);
    marking.catch(() => undefined);
    await deadline.race(adding, 'enqueue');
    await deadline.race(marking, 'mark').catch((err: unknown) =>
      // The run has started either way; without the record a redelivery during the run re-adds
      // the same job id, a no-op.
      log.warn({ err, runId: data.runId }, 'could not record the delivery'),
    );
    return { kind: 'started', runId: data.runId, jobId };
  }
}
