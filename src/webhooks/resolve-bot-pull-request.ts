/**
 * `/autofix <feedback>` on a pull request counts only on PRs this app opened: authored by its bot
 * account, from a branch under the configured prefix. The run then belongs to the issue the PR
 * fixes (read from the branch name `<prefix><type>/<issue>-<slug>`), so the issue's lock applies.
 */
import type { GitHubClient, RepoCoords } from '../github/types.js';
import type { AppIdentity } from './app-identity.js';

export interface BotPullRequest {
  branch: string;
  /** The issue the PR fixes, or the PR itself when the branch does not name one. */
  issue: { number: number; title: string; body: string | null };
}

export function issueNumberFromBranch(branch: string, prefix: string): number | undefined {
  if (!branch.startsWith(prefix)) return undefined;
  const match = /^[a-z]+\/(\d+)-/.exec(branch.slice(prefix.length));
  return match?.[1] ? Number(match[1]) : undefined;
}

export async function resolveBotPullRequest(
  octokit: GitHubClient,
  repo: RepoCoords,
  prNumber: number,
  branchPrefix: string,
  identity: AppIdentity,
): Promise<BotPullRequest | undefined> {
  const { data: pull } = await octokit.rest.pulls.get({ ...repo, pull_number: prNumber });
  const branch = pull.head.ref;
  if (pull.user?.login !== (await identity.botLogin()) || !branch.startsWith(branchPrefix)) {
    return undefined;
  }
  const issueNumber = issueNumberFromBranch(branch, branchPrefix);
  if (issueNumber === undefined) {
    return { branch, issue: { number: pull.number, title: pull.title, body: pull.body } };
  }
  const { data: issue } = await octokit.rest.issues.get({ ...repo, issue_number: issueNumber });
  return { branch, issue: { number: issue.number, title: issue.title, body: issue.body ?? null } };
}
