/**
 * Opens the pull request for a branch, or updates the one already open for it, so a retried or
 * re-triggered PR stage never opens a second PR.
 */
import type { Logger } from '../logger.js';
import { addLabels } from './labels.js';
import type { GitHubClient, RepoCoords } from './types.js';

export interface PullRequestSpec {
  branch: string;
  base: string;
  title: string;
  body: string;
  draft: boolean;
  labels: string[];
  /** Review requested from this user (the person who triggered the run). */
  reviewer?: string;
}

export interface PullRequestResult {
  number: number;
  url: string;
  created: boolean;
  draft: boolean;
}

/** Draft when the repo config asks for it or triage rated the change MEDIUM or HIGH. */
export function shouldOpenAsDraft(draftPrs: boolean, risk: string | undefined): boolean {
  return draftPrs || risk === 'MEDIUM' || risk === 'HIGH';
}

export async function createOrUpdatePullRequest(
  octokit: GitHubClient,
  repo: RepoCoords,
  spec: PullRequestSpec,
  log: Logger,
): Promise<PullRequestResult> {
  const { data: open } = await octokit.rest.pulls.list({
    ...repo,
    head: `${repo.owner}:${spec.branch}`,
    state: 'open',
    per_page: 1,
  });
  const existing = open[0];
  let result: PullRequestResult;
  if (existing) {
    const { data } = await octokit.rest.pulls.update({
      ...repo,
      pull_number: existing.number,
      title: spec.title,
      body: spec.body,
    });
    result = { number: data.number, url: data.html_url, created: false, draft: !!data.draft };
  } else {
    const { data } = await octokit.rest.pulls.create({
      ...repo,
      head: spec.branch,
      base: spec.base,
      title: spec.title,
      body: spec.body,
      draft: spec.draft,
    });
    result = { number: data.number, url: data.html_url, created: true, draft: !!data.draft };
  }
  await addLabels(octokit, repo, result.number, spec.labels);
  if (result.created && spec.reviewer)
    await requestReview(octokit, repo, result.number, spec.reviewer, log);
  return result;
}

/** Asks `reviewer` to review; not fatal when GitHub refuses (not a collaborator, the author). */
export async function requestReview(
  octokit: GitHubClient,
  repo: RepoCoords,
  pullNumber: number,
  reviewer: string,
  log: Logger,
): Promise<void> {
  try {
    await octokit.rest.pulls.requestReviewers({
      ...repo,
      pull_number: pullNumber,
      reviewers: [reviewer],
    });
  } catch (err) {
    log.warn({ err, reviewer }, 'could not request a review');
  }
}

/**
 * After a feedback commit on the bot's PR: the PR keeps its title and description (they describe
 * the whole change; the run's status comment on the PR reports this commit) and the person who
 * asked is asked to review again. Undefined when the PR is no longer open.
 */
export async function requestReviewOfFeedbackCommit(
  octokit: GitHubClient,
  repo: RepoCoords,
  pullNumber: number,
  /** Absent: nobody asked (a CI follow-up round), so nobody is asked to review. */
  reviewer: string | undefined,
  log: Logger,
): Promise<PullRequestResult | undefined> {
  const { data } = await octokit.rest.pulls.get({ ...repo, pull_number: pullNumber });
  if (data.state !== 'open') return undefined;
  if (reviewer !== undefined) await requestReview(octokit, repo, pullNumber, reviewer, log);
  return { number: data.number, url: data.html_url, created: false, draft: !!data.draft };
}
