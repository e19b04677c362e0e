/**
 * The CI follow-up's rounds on a PR, read from its commits (issue #17): each repair commit says
 * which round it was and what failure it answered, in trailers. Counting from the PR itself, not
 * from a store, keeps the limit true across restarts and Redis losses, and shows maintainers why
 * each commit exists. A trailer someone else wrote can only make the follow-up stop sooner.
 */
import { trailerValue as trailer } from '../text/commit-trailer.js';
import type { GitHubClient, RepoCoords } from './types.js';

export const CI_ROUND_TRAILER = 'Autofix-CI-Round';
export const CI_FAILURE_TRAILER = 'Autofix-CI-Failure';

export interface CiRound {
  sha: string;
  round: number;
  /** The failure signature the round answered (`failureSignature`). */
  signature: string;
}

/** The rounds among a PR's commits, oldest first. */
export function ciRoundsOf(commits: readonly { sha: string; message: string }[]): CiRound[] {
  return commits.flatMap((c) => {
    const round = Number.parseInt(trailer(c.message, CI_ROUND_TRAILER) ?? '', 10);
    if (!Number.isInteger(round) || round < 1) return [];
    return [{ sha: c.sha, round, signature: trailer(c.message, CI_FAILURE_TRAILER) ?? '' }];
  });
}

export function ciRoundTrailers(
  round: number,
  signature: string,
): { key: string; value: string }[] {
  return [
    { key: CI_ROUND_TRAILER, value: String(round) },
    { key: CI_FAILURE_TRAILER, value: signature },
  ];
}

export async function readCiRounds(
  octokit: GitHubClient,
  repo: RepoCoords,
  prNumber: number,
): Promise<CiRound[]> {
  const commits = await octokit.paginate(octokit.rest.pulls.listCommits, {
    ...repo,
    pull_number: prNumber,
    per_page: 100,
  });
  return ciRoundsOf(commits.map((c) => ({ sha: c.sha, message: c.commit.message })));
}
