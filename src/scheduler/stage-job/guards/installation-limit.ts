import { DelayedError } from 'bullmq';
import type { StageJobGuard } from '../job-gate.js';

/** An installation over its rate limit waits (delayed to when it may start), others go on. */
export const delayOverInstallationLimit: StageJobGuard = async ({
  rt,
  job,
  run,
  token,
  stage,
  log,
}) => {
  if (!rt.limiter) return undefined;
  const decision = await rt.limiter.take(run.installationId);
  if (decision.allowed) return undefined;
  await job.moveToDelayed(decision.retryAt, token);
  rt.metrics.jobs.inc({ stage, outcome: 'delayed' });
  log.info({ retryAt: decision.retryAt }, 'installation rate limit: delayed');
  throw new DelayedError();
};
