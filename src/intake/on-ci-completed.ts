/**
 * CI finished on a pull request's head (`check_suite`, `check_run` or `workflow_run` completed):
 * maybe a failure on a PR this app opened, which the follow-up repairs (issue #17). The webhook
 * only persists the trigger when a PR from a branch that can be the bot's is named; admission
 * (admit-ci-failure.ts) asks GitHub the rest. Completions of any conclusion are kept: the last
 * counted check to finish may be a success while an earlier one failed.
 */
import type { Context } from 'probot';
import type { TriggerEvent, TriggerJobData } from './trigger-types.js';
import { acceptTrigger } from './accept-trigger.js';
import { triggerRepository } from './build-trigger.js';
import type { WebhookDeps } from './webhook-deps.js';

type CiEvent = 'check_suite.completed' | 'check_run.completed' | 'workflow_run.completed';

interface PayloadPull {
  number: number;
  head: { ref: string; sha: string };
}

/** What the three payloads share, read from each's own object. */
interface CiCompletion {
  id: number;
  headSha: string;
  pulls: PayloadPull[];
}

function completionOf(event: CiEvent, payload: Record<string, unknown>): CiCompletion | undefined {
  const key = event.split('.')[0]!;
  const object = payload[key] as
    { id?: number; head_sha?: string; pull_requests?: PayloadPull[] | null } | undefined;
  if (!object?.head_sha || typeof object.id !== 'number') return undefined;
  return { id: object.id, headSha: object.head_sha, pulls: object.pull_requests ?? [] };
}

export function ciTriggers(
  deliveryId: string,
  event: TriggerEvent & CiEvent,
  payload: Record<string, unknown> & {
    repository: {
      id?: number;
      name: string;
      full_name: string;
      clone_url: string;
      default_branch: string;
      owner: { login: string };
    };
    installation: { id: number };
    sender?: { login: string } | null;
  },
  branchPrefix: string | undefined,
  now = Date.now(),
): TriggerJobData[] {
  const completion = completionOf(event, payload);
  if (!completion) return [];
  const { repository } = payload;
  const repoKey = repository.id ?? repository.full_name;
  return completion.pulls
    .filter((p) => p.head.sha === completion.headSha)
    .filter((p) => branchPrefix === undefined || p.head.ref.startsWith(branchPrefix))
    .map((p) => ({
      deliveryId,
      triggerKey: `ci:${repoKey}#${p.number}@${completion.headSha}:${event}:${completion.id}`,
      event,
      installationId: payload.installation.id,
      repository: triggerRepository(repository),
      issue: { number: p.number, title: '', body: null, isPullRequest: true },
      sender: payload.sender?.login ?? '',
      ci: { prNumber: p.number, headSha: completion.headSha, headBranch: p.head.ref },
      receivedAt: now,
    }));
}

export function onCiCompleted(deps: WebhookDeps) {
  return async (context: Context<CiEvent>): Promise<void> => {
    const event = `${context.name}.completed` as CiEvent;
    const payload = context.payload as unknown as Parameters<typeof ciTriggers>[2];
    const count = (result: string): void => deps.metrics?.deliveries.inc({ event, result });
    const installation = payload.installation as { id?: number } | undefined;
    if (!installation?.id) return count('ignored');
    const repo = { owner: payload.repository.owner.login, repo: payload.repository.name };
    const known = deps.configs.peek(repo, payload.repository.default_branch);
    if (known?.ok && known.config.ci_fix_attempts === 0) return count('ignored');
    const prefix = known?.ok ? known.config.branch_prefix : undefined;
    const triggers = ciTriggers(context.id, event, payload, prefix);
    if (triggers.length === 0) return count('ignored');
    for (const trigger of triggers) await acceptTrigger(deps, context.log, trigger);
  };
}
