/** Hands an admitted trigger to the run queue and answers a busy issue once. */
import type { GitHubClient, RepoCoords } from '../github/types.js';
import type { Logger } from '../logger.js';
import type { RunJobData } from '../runs/types.js';
import { conversationOf } from '../runs/run-addressing.js';
import { renderBusyReply } from './render-replies.js';
import type { AdmissionDeps } from './webhook-deps.js';

export type StartResult = 'started' | 'duplicate' | 'busy';

export async function startRun(
  deps: Pick<AdmissionDeps, 'intake'>,
  octokit: GitHubClient,
  log: Logger,
  job: RunJobData,
): Promise<StartResult> {
  const result = await deps.intake.start(job);
  // Bindings per call, not a child logger: this runs for every delivery.
  const at = { runId: job.runId, issue: job.issue.number };
  if (result.kind === 'started') {
    log.info({ ...at, trigger: job.trigger.kind, jobId: result.jobId }, 'run queued');
  } else if (result.kind === 'duplicate') {
    log.info({ ...at, previous: result.previous }, 'trigger seen before: nothing to do');
  } else {
    log.info({ ...at, activeRunId: result.activeRunId }, 'issue already has an active run');
    // Nobody waits on a CI round: the active run's own commit brings a new CI result anyway.
    if (!result.firstReply || job.trigger.kind === 'ci-failure') return result.kind;
    const repo: RepoCoords = { owner: job.repository.owner, repo: job.repository.name };
    await octokit.rest.issues
      .createComment({
        ...repo,
        issue_number: conversationOf(job),
        body: renderBusyReply(result.activeRunId),
      })
      .catch((err: unknown) => log.warn({ ...at, err }, 'could not post the busy reply'));
  }
  return result.kind;
}
