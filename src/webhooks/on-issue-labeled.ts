/** `issues.labeled` with the repository's trigger label starts a run on the issue. */
import type { Context } from 'probot';
import { admitTrigger, loadConfigOr503 } from './admit-trigger.js';
import { buildRunJob } from './build-run-job.js';
import { startRun } from './start-run.js';
import type { WebhookDeps } from './webhook-deps.js';

const EVENT = 'issues.labeled';

export function onIssueLabeled(deps: WebhookDeps) {
  return async (context: Context<'issues.labeled'>): Promise<void> => {
    const { payload, octokit } = context;
    const count = (result: string): void => deps.metrics?.deliveries.inc({ event: EVENT, result });
    // Bots never trigger runs, this app included (its own labels would loop).
    if (payload.sender.type === 'Bot') return count('bot');
    const installationId = payload.installation?.id;
    if (!installationId || !payload.label) return count('ignored');
    const repo = { owner: payload.repository.owner.login, repo: payload.repository.name };
    const defaultBranch = payload.repository.default_branch;
    const loaded = await loadConfigOr503(deps, octokit, repo, defaultBranch);
    const triggerLabel = loaded.ok ? loaded.config.trigger_label : loaded.triggerLabel;
    if (payload.label.name !== triggerLabel) return count('ignored');
    const config = await admitTrigger(deps, {
      octokit,
      log: context.log,
      event: EVENT,
      repo,
      defaultBranch,
      issueNumber: payload.issue.number,
      sender: payload.sender.login,
      loaded,
    });
    if (!config) return;
    const job = buildRunJob({
      deliveryId: context.id,
      installationId,
      repository: payload.repository,
      issue: payload.issue,
      trigger: { kind: 'label', label: payload.label.name },
      sender: payload.sender.login,
      config,
    });
    await startRun(deps, octokit, context.log, EVENT, job);
  };
}
