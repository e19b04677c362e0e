import type { GitHubClient, Reaction, ReactionTarget, RepoCoords } from './types.js';

/** Adds a reaction to an issue/PR or a comment. GitHub answers 200 for one that exists. */
export async function addReaction(
  octokit: GitHubClient,
  repo: RepoCoords,
  target: ReactionTarget,
  content: Reaction,
): Promise<void> {
  if (target.kind === 'issue') {
    await octokit.rest.reactions.createForIssue({ ...repo, issue_number: target.number, content });
  } else {
    await octokit.rest.reactions.createForIssueComment({ ...repo, comment_id: target.id, content });
  }
}
