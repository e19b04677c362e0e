import { UnrecoverableError } from 'bullmq';
import { failRun, finishRun, statusCommentFor } from '../../../runs/end-run.js';
import type { StageJobGuard } from '../job-gate.js';

/**
 * The run ended already (this job's worker died while reporting it): finish the report, which is
 * idempotent, and never run the stage again.
 */
export const completeEndedRun: StageJobGuard = async (gate) => {
  const { rt, run, stage, log } = gate;
  const ending = run.ending;
  if (!ending) return undefined;
  // Nothing was reported, nor will be: the app lost the repository.
  if (ending.outcome === 'abandoned') return { stage, outcome: 'stop' };
  log.warn({ outcome: ending.outcome }, 'the run had ended: completing its report only');
  const client = await gate.client();
  if (ending.outcome === 'failed') {
    await failRun(rt, run, client, ending.failure, log);
    throw new UnrecoverableError(`${ending.failure.error.code}: run ended before`);
  }
  const final = statusCommentFor(
    { ...run, status: ending.status },
    client,
    log,
    rt.runPage?.urlOf(run),
  );
  await finishRun(rt, run, client, final, log, ending.stop);
  return { stage, outcome: ending.stop ? 'stop' : 'continue' };
};
