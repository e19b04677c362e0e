/**
 * `pull_request.closed` (issue #36): a PR this app opened was merged or closed unmerged, or a
 * revert PR undoing one of its merged PRs was merged (revert-of.ts). A revert is recorded here,
 * from the payload and the outcome store (Redis only); a PR that may be the bot's (a bot's, from
 * the repository itself, under the branch prefix this process knows) is persisted as a trigger,
 * and admission (admit-pull-outcome.ts) checks it is this app's, finds its run and records the
 * outcome. A person's PR or a fork's is left here.
 */
import type { Context } from 'probot';
import { acceptTrigger } from './accept-trigger.js';
import { triggerRepository } from './build-trigger.js';
import { recordReverts } from './record-revert.js';
import { revertedPullOf } from './revert-of.js';
import type { TriggerJobData } from './trigger-types.js';
import type { WebhookDeps } from './webhook-deps.js';

const EVENT = 'pull_request.closed';

type ClosedPayload = Context<'pull_request.closed'>['payload'];

const epochMs = (iso: string | null | undefined, fallback: number): number =>
  Date.parse(iso ?? '') || fallback;

/** The trigger of a closed PR that may be the bot's, or undefined when it cannot be. */
export function closedTrigger(
  deliveryId: string,
  payload: ClosedPayload,
  branchPrefix: string | undefined,
  now = Date.now(),
): TriggerJobData | undefined {
  const { pull_request: pull, repository } = payload;
  const installationId = payload.installation?.id;
  const headRepo = pull.head.repo?.full_name ?? null;
  if (
    !installationId ||
    pull.user?.type !== 'Bot' ||
    headRepo?.toLowerCase() !== repository.full_name.toLowerCase() ||
    (branchPrefix !== undefined && !pull.head.ref.startsWith(branchPrefix))
  )
    return undefined;
  const at = epochMs(pull.merged ? pull.merged_at : pull.closed_at, now);
  return {
    deliveryId,
    // A redelivery has the same key; a PR reopened and closed again is a new event.
    triggerKey: `closed:${repository.id}#${pull.number}@${pull.closed_at ?? at}`,
    event: EVENT,
    installationId,
    repository: triggerRepository(repository),
    issue: { number: pull.number, title: pull.title, body: pull.body, isPullRequest: true },
    sender: payload.sender.login,
    closed: {
      prNumber: pull.number,
      merged: pull.merged === true,
      mergeSha: pull.merged ? (pull.merge_commit_sha ?? null) : null,
      at,
      author: pull.user.login,
      head: { ref: pull.head.ref, repo: headRepo },
    },
    receivedAt: now,
  };
}

/** A merged revert PR (`Reverts owner/repo#N`): the number of the app's PRs it reverted. */
async function recordRevertPull(deps: WebhookDeps, context: Context<'pull_request.closed'>) {
  const { pull_request: pull, repository } = context.payload;
  const reverted = pull.merged ? revertedPullOf(pull.body, repository.full_name) : undefined;
  if (reverted === undefined || !deps.outcomes) return 0;
  const at = epochMs(pull.merged_at, Date.now());
  const found = deps.outcomes.revertPull(repository.full_name, reverted, at);
  return recordReverts(deps, context.log, [found], `revert pull request #${pull.number}`);
}

export function onPullClosed(deps: WebhookDeps) {
  return async (context: Context<'pull_request.closed'>): Promise<void> => {
    const { payload } = context;
    const count = (result: string): void => deps.metrics?.deliveries.inc({ event: EVENT, result });
    if ((await recordRevertPull(deps, context)) > 0) return count('reverted');
    const repo = { owner: payload.repository.owner.login, repo: payload.repository.name };
    const known = deps.configs.peek(repo, payload.repository.default_branch);
    const prefix = known?.ok ? known.config.branch_prefix : undefined;
    const trigger = closedTrigger(context.id, payload, prefix);
    if (!trigger) return count('ignored');
    await acceptTrigger(deps, context.log, trigger);
  };
}
