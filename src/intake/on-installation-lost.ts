/**
 * `installation.deleted`, `installation.suspend` and `installation_repositories.removed`: the app
 * can no longer reach those repositories, so their queued and parked runs end now, quietly
 * (installation-gone.ts). `installation.unsuspend` needs nothing: a run accepted after it passes.
 */
import type { Context } from 'probot';
import type { GoneScope } from '../runs/run-registry.js';
import type { WebhookDeps } from './webhook-deps.js';

export const LOST_EVENTS = [
  'installation.deleted',
  'installation.suspend',
  'installation_repositories.removed',
] as const;

type LostEvent = (typeof LOST_EVENTS)[number];

function scopeOf(context: Context<LostEvent>): GoneScope {
  const { payload } = context;
  const installationId = payload.installation.id;
  if ('repositories_removed' in payload) {
    return { installationId, repositories: payload.repositories_removed.map((r) => r.full_name) };
  }
  return { installationId };
}

export function onInstallationLost(deps: WebhookDeps) {
  return async (context: Context<LostEvent>): Promise<void> => {
    if (!deps.lifecycle) return;
    const event = `${context.name}.${context.payload.action}`;
    deps.metrics?.deliveries.inc({ event, result: 'lost' });
    await deps.lifecycle.lost(scopeOf(context), event, context.log);
  };
}
