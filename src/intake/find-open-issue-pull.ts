/**
 * The open pull request this app opened for an issue, if any: from a branch of the issue under
 * the bot's prefix (any commit type), authored by the app's bot account, in the same repository.
 */
import { findIssueBranches } from '../git/branch-name.js';
import type { GitHubClient, RepoCoords } from '../github/types.js';
import type { AppIdentity } from './app-identity.js';

export interface OpenIssuePull {
  number: number;
  url: string;
  branch: string;
}

export async function findOpenIssuePull(
  octokit: GitHubClient,
  repo: RepoCoords,
  prefix: string,
  issue: number,
  identity: AppIdentity,
): Promise<OpenIssuePull | undefined> {
  const iterator = octokit.paginate.iterator(octokit.rest.pulls.list, {
    ...repo,
    state: 'open',
    per_page: 100,
  });
  let botLogin: string | undefined;
  for await (const page of iterator) {
    for (const pull of page.data) {
      if (findIssueBranches([pull.head.ref], prefix, issue).length === 0) continue;
      const sameRepo =
        !pull.head.repo ||
        pull.head.repo.full_name.toLowerCase() === `${repo.owner}/${repo.repo}`.toLowerCase();
      botLogin ??= await identity.botLogin();
      if (sameRepo && pull.user?.login === botLogin) {
        return { number: pull.number, url: pull.html_url, branch: pull.head.ref };
      }
    }
  }
  return undefined;
}
