/**
 * The review feedback on a pull request the bot opened: line comments and review verdicts, read
 * when a maintainer asks for another commit with `/autofix <feedback>`. Only people the repository
 * trusts (owner, members, collaborators) are read: on a public repository anyone can leave a
 * review comment, and this text goes into a prompt. The bot's own comments are skipped.
 */
import type { GitHubClient, RepoCoords } from './types.js';

/** A line comment (path, line) or a review (state). */
export interface PullFeedbackNote {
  author: string;
  body: string;
  /** File and line of a line comment. */
  path?: string;
  line?: number;
  /** The line comment no longer applies to the current diff. */
  outdated?: boolean;
  /** A review's verdict: APPROVED, CHANGES_REQUESTED, COMMENTED. */
  state?: string;
  createdAt: string;
}

export interface PullFeedback {
  notes: PullFeedbackNote[];
  /** Comments left out because their author is not trusted by the repository. */
  untrustedSkipped: number;
}

const TRUSTED = new Set(['OWNER', 'MEMBER', 'COLLABORATOR']);

/** Newest first from the API; at most one page of each kind (100), the newest. */
export async function readPullFeedback(
  octokit: GitHubClient,
  repo: RepoCoords,
  pullNumber: number,
  botLogin: string,
): Promise<PullFeedback> {
  const [comments, reviews] = await Promise.all([
    octokit.rest.pulls.listReviewComments({
      ...repo,
      pull_number: pullNumber,
      sort: 'created',
      direction: 'desc',
      per_page: 100,
    }),
    octokit.rest.pulls.listReviews({ ...repo, pull_number: pullNumber, per_page: 100 }),
  ]);
  const notes: PullFeedbackNote[] = [];
  let untrustedSkipped = 0;
  /** The author's login when the note is to be read. */
  const admit = (
    login: string | undefined,
    association: string,
    body: string,
  ): string | undefined => {
    if (!login || login === botLogin || !body.trim()) return undefined;
    if (!TRUSTED.has(association)) {
      untrustedSkipped++;
      return undefined;
    }
    return login;
  };
  for (const c of comments.data) {
    const author = admit(c.user?.login, c.author_association, c.body);
    if (!author) continue;
    const line = c.line ?? c.original_line ?? undefined;
    notes.push({
      author,
      body: c.body,
      path: c.path,
      ...(line ? { line } : {}),
      ...(c.position === null || c.line === null ? { outdated: true } : {}),
      createdAt: c.created_at,
    });
  }
  for (const r of reviews.data) {
    const author = admit(r.user?.login, r.author_association, r.body ?? '');
    if (!author) continue;
    notes.push({ author, body: r.body ?? '', state: r.state, createdAt: r.submitted_at ?? '' });
  }
  return { notes, untrustedSkipped };
}
