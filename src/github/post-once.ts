/**
 * Comments a job may post again after a crash or retry (status, failure, replies) carry a hidden
 * marker first; before posting, the job looks for a comment with its marker, so a retried job finds
 * the one it created before instead of posting a second.
 */
import type { Logger } from '../logger.js';
import type { GitHubClient, RepoCoords } from './types.js';

export async function findCommentByMarker(
  octokit: GitHubClient,
  repo: RepoCoords,
  issueNumber: number,
  marker: string,
  /** Only comments updated at or after this time (epoch ms) are read. */
  since?: number,
): Promise<number | undefined> {
  const iterator = octokit.paginate.iterator(octokit.rest.issues.listComments, {
    ...repo,
    issue_number: issueNumber,
    per_page: 100,
    ...(since === undefined ? {} : { since: new Date(since).toISOString() }),
  });
  for await (const page of iterator) {
    // Only a bot's comment counts: anyone can start a comment with a marker they copied from the
    // status comment, to hide a failure report or have the bot edit their comment.
    const found = page.data.find((c) => c.user?.type === 'Bot' && c.body?.startsWith(marker));
    if (found) return found.id;
  }
  return undefined;
}

/** Posts `body` (which must contain `marker`) unless a comment with the marker exists. */
export async function postOnce(
  octokit: GitHubClient,
  target: { repo: RepoCoords; issueNumber: number; marker: string; since?: number },
  body: string,
  log: Logger,
): Promise<'posted' | 'found'> {
  const { repo, issueNumber, marker } = target;
  const existing = await findCommentByMarker(octokit, repo, issueNumber, marker, target.since);
  if (existing !== undefined) {
    log.info({ commentId: existing }, 'comment posted by an earlier attempt: not posted again');
    return 'found';
  }
  await octokit.rest.issues.createComment({ ...repo, issue_number: issueNumber, body });
  return 'posted';
}
