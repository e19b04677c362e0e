/**
 * `check_run.rerequested`: "Re-run" on the "Autofix verification" check run of a PR's head
 * (issue #17) verifies that commit again. The webhook persists the trigger when the check run is
 * named like ours and names a PR; admission (admit-rerun.ts) checks it is this app's run, on a PR
 * this app opened, asked by someone who may write.
 */
import type { Context } from 'probot';
import { CHECK_RUN_NAME } from '../github/check-run.js';
import type { TriggerJobData } from './trigger-types.js';
import { acceptTrigger } from './accept-trigger.js';
import { triggerRepository } from './build-trigger.js';
import type { WebhookDeps } from './webhook-deps.js';

const EVENT = 'check_run.rerequested';

interface RerequestPayload {
  check_run: {
    id: number;
    name: string;
    head_sha: string;
    app?: { slug?: string } | null;
    pull_requests?: { number: number; head: { ref: string; sha: string } }[] | null;
  };
  repository: {
    id?: number;
    name: string;
    full_name: string;
    clone_url: string;
    default_branch: string;
    owner: { login: string };
  };
  installation?: { id?: number };
  sender: { login: string; type?: string };
}

/** The trigger of a re-run request, or undefined when it is none of ours to look at. */
export function rerunTrigger(
  deliveryId: string,
  payload: RerequestPayload,
  now = Date.now(),
): TriggerJobData | undefined {
  const run = payload.check_run;
  const installationId = payload.installation?.id;
  if (!installationId || run.name !== CHECK_RUN_NAME || payload.sender.type === 'Bot') {
    return undefined;
  }
  const pull = (run.pull_requests ?? []).find((p) => p.head.sha === run.head_sha);
  if (!pull) return undefined;
  const { repository } = payload;
  return {
    deliveryId,
    // Each request is its own (a redelivery keeps its delivery id).
    triggerKey: `rerun:${repository.id ?? repository.full_name}#${run.id}:${deliveryId}`,
    event: EVENT,
    installationId,
    repository: triggerRepository(repository),
    issue: { number: pull.number, title: '', body: null, isPullRequest: true },
    sender: payload.sender.login,
    rerun: {
      checkRunId: run.id,
      appSlug: run.app?.slug ?? '',
      prNumber: pull.number,
      headSha: run.head_sha,
    },
    receivedAt: now,
  };
}

export function onCheckRerequested(deps: WebhookDeps) {
  return async (context: Context<'check_run.rerequested'>): Promise<void> => {
    const trigger = rerunTrigger(context.id, context.payload as unknown as RerequestPayload);
    if (!trigger) {
      deps.metrics?.deliveries.inc({ event: EVENT, result: 'ignored' });
      return;
    }
    await acceptTrigger(deps, context.log, trigger);
  };
}
