/**
 * Which run a pull request of this app belongs to (issue #36), read from the PR itself: every
 * commit the bot makes names its run in the `Autofix-Run` trailer (git/commit.ts), and the oldest
 * such commit on the PR is the run that made the branch and opened (or last replaced) the PR; a
 * later feedback or CI round adds commits under its own run id. Commits are what GitHub keeps
 * after a merge (squash included), unlike the description, which anyone with write access may
 * edit; the description's `- Run:` line (`runLine`, written by the last stage) is the fallback for
 * a PR whose commits carry no trailer.
 */
import { RUN_TRAILER } from '../git/identity.js';
import { trailerValue } from '../text/commit-trailer.js';
import type { GitHubClient, RepoCoords } from './types.js';

/** What a run id can look like (`run-<16 hex>`, artifacts/run-id.ts): nothing else is a key. */
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** The description's line naming the run (render-pr-body.ts). */
export function runLine(runId: string): string {
  return `- Run: \`${runId}\``;
}

/** The run of a PR: the oldest commit's trailer, else the description's run line. */
export function runIdOfPull(
  commits: readonly { message: string }[],
  body: string | null,
): string | undefined {
  for (const c of commits) {
    const runId = trailerValue(c.message, RUN_TRAILER);
    if (runId && RUN_ID.test(runId)) return runId;
  }
  const line = /^- Run: `([^`\s]+)`[ \t]*$/m.exec(body ?? '')?.[1];
  return line && RUN_ID.test(line) ? line : undefined;
}

export async function readPullRunId(
  octokit: GitHubClient,
  repo: RepoCoords,
  prNumber: number,
  body: string | null,
): Promise<string | undefined> {
  const commits = await octokit.paginate(octokit.rest.pulls.listCommits, {
    ...repo,
    pull_number: prNumber,
    per_page: 100,
  });
  return runIdOfPull(
    commits.map((c) => ({ message: c.commit.message })),
    body,
  );
}
