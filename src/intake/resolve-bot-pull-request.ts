/**
 * `/autofix <feedback>` on a pull request counts only on PRs this app opened: authored by its bot
 * account, from a branch of the repository itself under the configured prefix. The run then belongs to the issue the PR
 * fixes (read from the branch name `<prefix><type>/<issue>-<slug>`), so the issue's lock applies.
 * The review's comments at that moment travel with the run, sanitized and bounded.
 */
import { readPullFeedback } from '../github/pull-feedback.js';
import type { GitHubClient, RepoCoords } from '../github/types.js';
import { boundReviewNotes, type ReviewNote } from '../github/review-notes.js';
import { sanitizeUntrustedText } from '../text/untrusted-text.js';
import type { AppIdentity } from './app-identity.js';

export interface BotPullRequest {
  branch: string;
  state: string;
  head: { sha: string };
  base: { ref: string; sha: string };
  /** The issue the PR fixes, or the PR itself when the branch does not name one. */
  issue: { number: number; title: string; body: string | null };
  review: ReviewNote[];
  /** Review comments left out because their authors are not trusted by the repository. */
  untrustedSkipped: number;
}

export function issueNumberFromBranch(branch: string, prefix: string): number | undefined {
  if (!branch.startsWith(prefix)) return undefined;
  const match = /^[a-z]+\/(\d+)-/.exec(branch.slice(prefix.length));
  return match?.[1] ? Number(match[1]) : undefined;
}

/** What GitHub says of a pull request (`pulls.get`, or a webhook's `pull_request`). */
export interface PullFacts {
  user?: { login: string } | null;
  head: { ref: string; repo?: { full_name: string } | null };
}

/**
 * A PR this app opened: authored by its bot account, from a branch under the prefix, in the
 * repository itself. A fork's PR is not the bot's even when the app's account opened it (the same
 * app installed on the fork): the bot pushes only to the repository itself, and GitHub tells them
 * apart by `head.repo`.
 */
export function isBotPullRequest(
  pull: PullFacts,
  repo: RepoCoords,
  branchPrefix: string,
  botLogin: string,
): boolean {
  const fromFork =
    pull.head.repo?.full_name.toLowerCase() !== `${repo.owner}/${repo.repo}`.toLowerCase();
  return pull.user?.login === botLogin && pull.head.ref.startsWith(branchPrefix) && !fromFork;
}

/**
 * The bot's PR while it is open, without its review (a CI round or a re-run reads none):
 * undefined for a PR another author opened, from another branch, or closed.
 */
export async function openBotPullRequest(
  octokit: GitHubClient,
  repo: RepoCoords,
  prNumber: number,
  branchPrefix: string,
  identity: AppIdentity,
): Promise<BotPullRequest | undefined> {
  const pull = await resolveBotPullRequest(octokit, repo, prNumber, branchPrefix, identity, {
    review: false,
  });
  return pull?.state === 'open' ? pull : undefined;
}

export async function resolveBotPullRequest(
  octokit: GitHubClient,
  repo: RepoCoords,
  prNumber: number,
  branchPrefix: string,
  identity: AppIdentity,
  /** Read the review's comments too (a feedback run); a CI follow-up needs none. */
  options: { review?: boolean } = {},
): Promise<BotPullRequest | undefined> {
  const { data: pull } = await octokit.rest.pulls.get({ ...repo, pull_number: prNumber });
  const branch = pull.head.ref;
  const botLogin = await identity.botLogin();
  if (!isBotPullRequest(pull, repo, branchPrefix, botLogin)) return undefined;
  const issueNumber = issueNumberFromBranch(branch, branchPrefix);
  const [issue, feedback] = await Promise.all([
    issueNumber === undefined
      ? { number: pull.number, title: pull.title, body: pull.body }
      : octokit.rest.issues.get({ ...repo, issue_number: issueNumber }).then(({ data }) => ({
          number: data.number,
          title: data.title,
          body: data.body ?? null,
        })),
    options.review === false
      ? { notes: [], untrustedSkipped: 0 }
      : readPullFeedback(octokit, repo, prNumber, botLogin),
  ]);
  const review = boundReviewNotes(
    feedback.notes
      .map((note): ReviewNote => ({ ...note, body: sanitizeUntrustedText(note.body) }))
      .filter((note) => note.body !== ''),
  );
  return {
    branch,
    state: pull.state,
    head: { sha: pull.head.sha },
    base: { ref: pull.base.ref, sha: pull.base.sha },
    issue,
    review,
    untrustedSkipped: feedback.untrustedSkipped,
  };
}
