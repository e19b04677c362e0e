import { UnrecoverableError } from 'bullmq';
import { classifyError } from '../../classify-error.js';
import type { InstallationClient } from '../../github/installation-auth.js';
import { capOf, parkMessageOf, parkReasonOf } from '../../park-reason.js';
import { failRun } from '../../runs/end-run.js';
import { attemptEnded, type AttemptAccount } from '../../runs/run-transitions.js';
import type { JobGate, StageJobResult } from './job-gate.js';
import { parkRun } from './park-run.js';
import { requeue } from './requeue.js';
import type { StageStatus } from './stage-status.js';

interface FailedAttempt {
  client: InstallationClient;
  status: StageStatus;
  signal: AbortSignal;
  account: AttemptAccount;
}

/**
 * A stage that threw: interrupted by shutdown → back to the queue without using an attempt;
 * transient with attempts left → rethrown for BullMQ to retry; a budget reached or an LLM that
 * stayed down → the run parks at this stage (its checkpoint kept); otherwise the run fails
 * (rolled back, reported) and the job fails for good.
 */
export async function onStageError(
  gate: JobGate,
  err: unknown,
  ctx: FailedAttempt,
): Promise<StageJobResult> {
  const { rt, job, stage, attempt, log } = gate;
  const seconds = ctx.account.durationMs / 1000;
  const observe = (outcome: string): void => {
    rt.metrics.jobs.inc({ stage, outcome });
    rt.metrics.stageDuration.observe({ stage, outcome }, seconds);
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
    await countAttempt(gate, 'running', ctx.account);
    throw err;
  }
  const reason = parkReasonOf(err);
  if (reason) {
    observe('parked');
    const message = rt.redact(parkMessageOf(err, reason, stage, gate.run.config.command));
    const cap = capOf(err);
    return parkRun(
      gate,
      { kind: 'park', reason, message, ...(cap ? { cap } : {}) },
      { ...ctx, attempt: ctx.account },
    );
  }
  observe('failed');
  await countAttempt(gate, 'failed', ctx.account);
  const failure = { stage, error: verdict.shape, attempts: attempt };
  await failRun(rt, gate.run, ctx.client, failure, log, ctx.status.comment);
  throw new UnrecoverableError(`${verdict.shape.code}: ${rt.redact(verdict.shape.message)}`);
}

/** The attempt's time and usage join the stage's record (best effort: the failure matters more). */
async function countAttempt(
  gate: JobGate,
  state: 'running' | 'failed',
  account: AttemptAccount,
): Promise<void> {
  try {
    gate.setRun(
      await gate.rt.runs.update(gate.run.runId, (r) =>
        attemptEnded(r, gate.stage, state, account, Date.now()),
      ),
    );
  } catch (err) {
    gate.log.warn({ err }, 'could not record the attempt in the run record');
  }
}
