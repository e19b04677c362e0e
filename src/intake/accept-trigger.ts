/** Persists a trigger; a failure to do so in time is a 503 (from the intake) so GitHub shows it. */
import type { Logger } from '../logger.js';
import type { TriggerJobData } from './trigger-types.js';
import type { WebhookDeps } from './webhook-deps.js';

export async function acceptTrigger(
  deps: WebhookDeps,
  log: Logger,
  trigger: TriggerJobData,
): Promise<void> {
  const { jobId } = await deps.triggers.accept(trigger);
  deps.metrics?.deliveries.inc({ event: trigger.event, result: 'accepted' });
  log.info({ issue: trigger.issue.number, jobId }, 'trigger queued');
}
