/**
 * Admission of a closed pull request (issue #36): when it is one this app opened (the same check
 * as for feedback on its PRs, `isBotPullRequest`, on the webhook's own description of the PR),
 * its run is read from its commits (github/pull-run-id.ts) and the outcome, merged or closed, is
 * recorded once in the outcome store and counted in `autofix_pr_outcomes_total`.
 */
import type { GitHubClient, RepoCoords } from '../github/types.js';
import { readPullRunId } from '../github/pull-run-id.js';
import type { Logger } from '../logger.js';
import { isBotPullRequest } from './resolve-bot-pull-request.js';
import type { PullClosed, TriggerJobData } from './trigger-types.js';
import type { AdmissionDeps } from './webhook-deps.js';

export type OutcomeAdmissionResult =
  | 'recorded'
  /** Recorded before: a redelivery, or a second event of the same PR. */
  | 'known'
  | 'ignored'
  /** The app's PR, but neither its commits nor its description name a run. */
  | 'no-run';

export async function admitPullOutcome(
  deps: Pick<AdmissionDeps, 'identity' | 'outcomes' | 'metrics'>,
  t: TriggerJobData & { closed: PullClosed },
  octokit: GitHubClient,
  log: Logger,
  branchPrefix: string,
): Promise<OutcomeAdmissionResult> {
  const repo: RepoCoords = { owner: t.repository.owner.login, repo: t.repository.name };
  const c = t.closed;
  const pull = {
    user: { login: c.author },
    head: { ref: c.head.ref, repo: c.head.repo === null ? null : { full_name: c.head.repo } },
  };
  if (!deps.outcomes || !isBotPullRequest(pull, repo, branchPrefix, await deps.identity.botLogin()))
    return 'ignored';
  const runId = await readPullRunId(octokit, repo, c.prNumber, t.issue.body);
  if (!runId) {
    log.warn(
      { pr: c.prNumber },
      "no run id in the PR's commits or description: outcome not recorded",
    );
    return 'no-run';
  }
  const outcome = c.merged ? 'merged' : 'closed';
  const added = await deps.outcomes.decide({
    runId,
    repo: t.repository.full_name,
    pr: c.prNumber,
    outcome,
    at: c.at,
    ...(c.merged && c.mergeSha ? { mergeSha: c.mergeSha } : {}),
  });
  if (!added) return 'known';
  deps.metrics?.prOutcomes.inc({ outcome });
  log.info({ runId, pr: c.prNumber, outcome }, 'pull request outcome recorded');
  return 'recorded';
}
