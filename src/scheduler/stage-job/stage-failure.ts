import { UnrecoverableError } from 'bullmq';
import { classifyError } from '../../classify-error.js';
import type { InstallationClient } from '../../github/installation-auth.js';
import { failRun } from '../../runs/end-run.js';
import type { JobGate } from './job-gate.js';
import { requeue } from './requeue.js';
import type { StageStatus } from './stage-status.js';

/**
 * A stage that threw: interrupted by shutdown → back to the queue without using an attempt;
 * transient with attempts left → rethrown for BullMQ to retry; otherwise the run fails (rolled
 * back, reported) and the job fails for good. Always throws.
 */
export async function onStageError(
  gate: JobGate,
  err: unknown,
  ctx: { client: InstallationClient; status: StageStatus; signal: AbortSignal; seconds: number },
): Promise<never> {
  const { rt, job, stage, attempt, log } = gate;
  const observe = (outcome: string): void => {
    rt.metrics.jobs.inc({ stage, outcome });
    rt.metrics.stageDuration.observe({ stage, outcome }, ctx.seconds);
  };
  if (ctx.signal.aborted) {
    observe('requeued');
    log.warn({ err }, 'interrupted by shutdown: job returned to the queue');
    return requeue(job, gate.token);
  }
  const verdict = classifyError(err);
  const attempts = job.opts.attempts ?? 1;
  if (verdict.transient && attempt < attempts) {
    observe('retried');
    log.warn({ err, attempts }, 'stage failed; will retry');
    throw err;
  }
  observe('failed');
  const failure = { stage, error: verdict.shape, attempts: attempt };
  await failRun(rt, job.data, ctx.client, failure, log, ctx.status.comment);
  throw new UnrecoverableError(`${verdict.shape.code}: ${rt.redact(verdict.shape.message)}`);
}
