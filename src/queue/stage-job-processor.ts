/**
 * The BullMQ processor around one stage: rate limit, installation client, status comment, the
 * stage itself, then the next job (or the end of the run). Decides retry vs. permanent failure
 * through classifyError, and hands a job interrupted by shutdown back to the queue untouched.
 */
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import { addReaction } from '../github/reactions.js';
import { classifyError } from '../classify-error.js';
import { failRun, finishRun, statusCommentFor } from './end-run.js';
import { jobIdFor, nextStage, reactionTargetOf, repoOf, stagesOf } from './run-addressing.js';
import { statusRevision } from './status-publisher.js';
import { runKeyOf } from './run-registry.js';
import type { StageRuntime } from './stage-runtime.js';
import {
  STAGES,
  type RunJobData,
  type StageContext,
  type StageName,
  type StageOutcome,
  type StageOutputs,
} from './types.js';

export interface StageJobResult {
  stage: StageName;
  outcome: 'continue' | 'stop';
  next?: string;
}

/**
 * Shutdown hands a job back as delayed, not waiting: a closing worker may still have a fetch in
 * flight that would take a waiting job straight back.
 */
const REQUEUE_DELAY_MS = 1000;

async function requeue(job: Job<RunJobData>, token: string | undefined): Promise<never> {
  await job.moveToDelayed(Date.now() + REQUEUE_DELAY_MS, token);
  throw new DelayedError();
}

export function createStageJobProcessor(stage: StageName, rt: StageRuntime) {
  return async (
    job: Job<RunJobData>,
    token?: string,
    bullSignal?: AbortSignal,
  ): Promise<StageJobResult> => {
    const data = job.data;
    const attempt = job.attemptsMade + 1;
    const log = rt.log.child({ runId: data.runId, stage, attempt, jobId: job.id });
    if (rt.shutdown.aborted) {
      rt.metrics.jobs.inc({ stage, outcome: 'requeued' });
      return requeue(job, token);
    }

    if (rt.limiter) {
      const decision = await rt.limiter.take(data.installationId);
      if (!decision.allowed) {
        await job.moveToDelayed(decision.retryAt, token);
        rt.metrics.jobs.inc({ stage, outcome: 'delayed' });
        log.info({ retryAt: decision.retryAt }, 'installation rate limit: delayed');
        throw new DelayedError();
      }
    }

    const client = await rt.auth(data.installationId);
    // The run ended already (this job's worker died while reporting it): finish the report,
    // which is idempotent, and never run the stage again.
    const ending = await rt.registry.ended(data.runId);
    if (ending) {
      log.warn({ outcome: ending.outcome }, 'the run had ended: completing its report only');
      if (ending.outcome === 'failed') {
        await failRun(rt, data, client, ending.failure, log);
        throw new UnrecoverableError(`${ending.failure.error.code}: run ended before`);
      }
      const final = statusCommentFor({ ...data, status: ending.status }, client, log);
      await finishRun(rt, data, client, final, log, ending.stop);
      return { stage, outcome: ending.stop ? 'stop' : 'continue' };
    }
    const status = statusCommentFor(data, client, log);
    // The status comment is published in the background (status-publisher.ts): no stage waits
    // for an edit, and a later stage's edit is never overwritten by this one's.
    let seq = 0;
    const show = (): void =>
      rt.status.submit({
        runId: data.runId,
        rev: statusRevision(STAGES.indexOf(stage), attempt, ++seq),
        body: status.render(),
        startedAt: data.acceptedAt,
        target: status.target(),
        ...(data.statusCommentId === undefined ? {} : { commentId: data.statusCommentId }),
      });
    status.setStage(stage, { state: 'running' });
    show();
    if (stage === stagesOf(data)[0] && attempt === 1) {
      void addReaction(client.octokit, repoOf(data), reactionTargetOf(data), 'eyes').catch(
        (err: unknown) => log.warn({ err }, 'could not add the 👀 reaction'),
      );
    }
    await rt.registry
      .refresh(runKeyOf(data), data.runId)
      .catch((err: unknown) => log.warn({ err }, 'could not refresh the issue lock'));

    const signal = bullSignal ? AbortSignal.any([rt.shutdown, bullSignal]) : rt.shutdown;
    // Only this stage's own: a checkpoint is dropped when its stage completes.
    const saved: StageOutputs = data.checkpoint?.[stage] ? { [stage]: data.checkpoint[stage] } : {};
    const ctx: StageContext = {
      stage,
      attempt,
      octokit: client.octokit,
      getInstallationToken: client.getInstallationToken,
      log,
      signal,
      status: {
        current: () => status.facts(),
        update: (patch) => {
          status.merge(patch);
          show();
          return Promise.resolve();
        },
      },
      checkpoint: {
        saved,
        // job.data, not data: the status comment id may have been recorded meanwhile.
        save: (value) => job.updateData({ ...job.data, checkpoint: value }),
      },
    };

    const started = performance.now();
    const seconds = (): number => (performance.now() - started) / 1000;
    let outcome: StageOutcome;
    try {
      outcome = await rt.processors[stage](data, ctx);
    } catch (err) {
      if (signal.aborted) {
        // Shutdown: back to the queue without using an attempt; another worker starts it over.
        rt.metrics.jobs.inc({ stage, outcome: 'requeued' });
        rt.metrics.stageDuration.observe({ stage, outcome: 'requeued' }, seconds());
        log.warn({ err }, 'interrupted by shutdown: job returned to the queue');
        return requeue(job, token);
      }
      const verdict = classifyError(err);
      const attempts = job.opts.attempts ?? 1;
      if (verdict.transient && attempt < attempts) {
        rt.metrics.jobs.inc({ stage, outcome: 'retried' });
        rt.metrics.stageDuration.observe({ stage, outcome: 'retried' }, seconds());
        log.warn({ err, attempts }, 'stage failed; will retry');
        throw err;
      }
      rt.metrics.jobs.inc({ stage, outcome: 'failed' });
      rt.metrics.stageDuration.observe({ stage, outcome: 'failed' }, seconds());
      await failRun(
        rt,
        data,
        client,
        { stage, error: verdict.shape, attempts: attempt },
        log,
        status,
      );
      throw new UnrecoverableError(`${verdict.shape.code}: ${rt.redact(verdict.shape.message)}`);
    }

    const durationMs = Math.round(seconds() * 1000);
    status.setStage(stage, { state: 'done', durationMs });
    if (outcome.status) status.merge(outcome.status);
    const outcomeLabel = outcome.kind === 'stop' ? 'stopped' : 'completed';
    rt.metrics.jobs.inc({ stage, outcome: outcomeLabel });
    rt.metrics.stageDuration.observe({ stage, outcome: outcomeLabel }, durationMs / 1000);

    const next = outcome.kind === 'continue' ? nextStage(data, stage) : undefined;
    if (outcome.kind === 'stop' || !next) {
      await finishRun(rt, data, client, status, log, outcome.kind === 'stop' ? outcome : undefined);
      return { stage, outcome: outcome.kind };
    }
    status.setStage(next, { state: 'queued' });
    // Not awaited: the next stage's own versions outrank this one (status-publisher.ts).
    show();
    const nextData: RunJobData = {
      ...data,
      checkpoint: undefined, // this stage's; the next stage starts without one
      status: status.facts(),
      outputs: { ...data.outputs, [stage]: outcome.output },
      ...(outcome.kind === 'continue' && outcome.pins
        ? { pins: { ...data.pins, ...outcome.pins } }
        : {}),
    };
    const commentId = rt.status.commentId(data.runId) ?? data.statusCommentId;
    if (commentId !== undefined) nextData.statusCommentId = commentId;
    const nextId = jobIdFor(data.runId, next);
    await rt.queues[next].add(next, nextData, { jobId: nextId });
    return { stage, outcome: 'continue', next: nextId };
  };
}
