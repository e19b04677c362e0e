/**
 * A parked run nobody answered ends when its parking expires (`parkTtlMs`, default 7 days): its
 * kept commit is rolled back (the run-failed hook, which only cleans up), the status comment says
 * what it waited for and that nothing was published, and the issue is free again. Every worker
 * sweeps; the ending is claimed by compare-and-set on the record, so one worker ends each run.
 */
import { finishRun, statusCommentFor } from '../runs/end-run.js';
import type { Run } from '../runs/run-record.js';
import { ended } from '../runs/run-transitions.js';
import type { StageRuntime } from './stage-runtime.js';

const WAITED_FOR: Record<NonNullable<Run['parked']>['reason'], string> = {
  'plan-approval': 'approval of its plan',
  budget: 'a maintainer to allow more spending',
  'llm-unavailable': 'its LLM endpoint to come back',
};

export function expiryReason(run: Run): string {
  const parking = run.parked!;
  const days = Math.max(1, Math.round((parking.expiresAt - parking.at) / 86_400_000));
  return `The run waited ${days} day${days === 1 ? '' : 's'} for ${WAITED_FOR[parking.reason]} and nobody answered, so it ended with nothing published. Comment \`${run.config.command}\` to start again.`;
}

/** Ends every parked run whose parking expired by `now`; answers their ids. */
export async function expireParkedRuns(rt: StageRuntime, now = Date.now()): Promise<string[]> {
  const done: string[] = [];
  for (const runId of await rt.runs.parked()) {
    let reason = '';
    const record = await rt.runs.update(runId, (r) => {
      if (!r.parked || r.ending || r.parked.expiresAt > now) return undefined;
      reason = expiryReason(r);
      return ended(r, { outcome: 'finished', stop: { reason }, status: r.status }, now);
    });
    if (!reason) continue;
    await endExpired(rt, record, reason);
    done.push(runId);
  }
  return done;
}

async function endExpired(rt: StageRuntime, run: Run, reason: string): Promise<void> {
  const log = rt.log.child({ runId: run.runId });
  try {
    const client = await rt.auth(run.installationId);
    if (rt.onRunFailed) {
      const failure = {
        stage: run.stages.code ? ('code' as const) : ('triage' as const),
        error: { code: 'TIMEOUT' as const, message: reason, recoverable: false },
        attempts: 0,
      };
      await rt
        .onRunFailed(run, failure, { ...client, log })
        .catch((err: unknown) => log.warn({ err }, 'could not roll back the expired run'));
    }
    const status = statusCommentFor(run, client, log, rt.runPage?.urlOf(run));
    await finishRun(rt, run, client, status, log, { reason });
    log.info('parked run expired: ended with nothing published');
  } catch (err) {
    log.error({ err }, 'could not report the end of an expired parked run');
  }
}

/** Sweeps every `intervalMs` until stopped. */
export function startParkedRunSweeper(rt: StageRuntime, intervalMs: number): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    expireParkedRuns(rt)
      .catch((err: unknown) => rt.log.warn({ err }, 'parked-run sweep failed'))
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
