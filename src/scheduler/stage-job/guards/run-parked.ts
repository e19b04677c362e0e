import type { StageJobGuard } from '../job-gate.js';

/**
 * The run is parked (it waits for a maintainer, for money, or for its LLM): a job of it that
 * comes up anyway (added twice, or left from before the parking) does nothing; the run goes on
 * only from `/autofix continue` (or approve), which queues its stage again.
 */
export const leaveParkedRun: StageJobGuard = ({ run, stage, log }) => {
  if (!run.parked) return Promise.resolve(undefined);
  log.info({ reason: run.parked.reason }, 'the run is parked: this job does nothing');
  return Promise.resolve({ stage, outcome: 'park' });
};
