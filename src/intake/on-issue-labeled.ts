/**
 * `issues.labeled`: a label that may be the repository's trigger label becomes a persisted
 * trigger; admission (config, permission) happens in its job (admit-trigger.ts).
 */
import type { Context } from 'probot';
import { acceptTrigger } from './accept-trigger.js';
import { labelTrigger } from './build-trigger.js';
import { triggersOf } from './repo-config-loader.js';
import type { WebhookDeps } from './webhook-deps.js';

const EVENT = 'issues.labeled';

export function onIssueLabeled(deps: WebhookDeps) {
  return async (context: Context<'issues.labeled'>): Promise<void> => {
    const { payload } = context;
    const count = (result: string): void => deps.metrics?.deliveries.inc({ event: EVENT, result });
    // Bots never trigger runs, this app included (its own labels would loop).
    if (payload.sender.type === 'Bot') return count('bot');
    const installation = payload.installation;
    const label = payload.label;
    if (!installation?.id || !label) return count('ignored');
    const repo = { owner: payload.repository.owner.login, repo: payload.repository.name };
    const known = deps.configs.peek(repo, payload.repository.default_branch);
    if (known && label.name !== triggersOf(known).triggerLabel) return count('ignored');
    await acceptTrigger(
      deps,
      context.log,
      labelTrigger(context.id, { ...payload, installation, label }),
    );
  };
}
