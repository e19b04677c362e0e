/**
 * Admission of a re-run request on the verification check run (issue #17): it must be this app's
 * check run, on a PR this app opened and still open, asked by someone with write access. Then a
 * `verify` run checks that head out and runs the repository's commands on it again.
 */
import type { RepoConfig } from '../config/repo-config.js';
import type { GitHubClient, RepoCoords } from '../github/types.js';
import type { Logger } from '../logger.js';
import type { TriggerJobData } from './trigger-types.js';
import { buildRunJob } from './build-run-job.js';
import { openBotPullRequest } from './resolve-bot-pull-request.js';
import { startRun, type StartResult } from './start-run.js';
import type { AdmissionDeps } from './webhook-deps.js';

export async function admitRerun(
  deps: AdmissionDeps,
  t: TriggerJobData & { rerun: NonNullable<TriggerJobData['rerun']> },
  octokit: GitHubClient,
  log: Logger,
  config: RepoConfig,
): Promise<StartResult | 'ignored' | 'unauthorized'> {
  const repo: RepoCoords = { owner: t.repository.owner.login, repo: t.repository.name };
  const { prNumber, headSha, checkRunId } = t.rerun;
  if (t.rerun.appSlug !== (await deps.identity.slug())) {
    log.info({ app: t.rerun.appSlug }, "another app's check run of the same name: ignored");
    return 'ignored';
  }
  if (!(await deps.permissions.allows(octokit, repo, t.sender, log))) {
    log.info({ sender: t.sender }, 'sender lacks write permission: no re-run');
    return 'unauthorized';
  }
  const pull = await openBotPullRequest(
    octokit,
    repo,
    prNumber,
    config.branch_prefix,
    deps.identity,
  );
  if (!pull) return 'ignored';
  const job = buildRunJob({
    deliveryId: t.deliveryId,
    triggerKey: t.triggerKey,
    installationId: t.installationId,
    repository: t.repository,
    issue: pull.issue,
    trigger: { kind: 'verify', prNumber, branch: pull.branch, headSha, checkRunId },
    sender: t.sender,
    config,
    now: t.receivedAt,
  });
  return startRun(deps, octokit, log, job);
}
