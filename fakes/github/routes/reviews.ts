/**
 * A pull request's review side: the line comments and reviews a test added (`addReviewNote`),
 * and review requests (answered with the users asked).
 */
import { userJson } from '../repository-json.js';
import { repoRoute, type Route } from '../route.js';
import type { FakeStore, StoredReviewNote } from '../store.js';

function reviewCommentJson(c: StoredReviewNote) {
  return {
    id: c.id,
    body: c.body,
    path: c.path ?? 'README.md',
    line: c.outdated ? null : (c.line ?? 1),
    original_line: c.line ?? 1,
    position: c.outdated ? null : 1,
    created_at: c.at,
    author_association: c.association ?? 'COLLABORATOR',
    user: userJson(c.author),
  };
}

function reviewJson(c: StoredReviewNote) {
  return {
    id: c.id,
    body: c.body,
    state: c.state,
    submitted_at: c.at,
    author_association: c.association ?? 'COLLABORATOR',
    user: userJson(c.author),
  };
}

export function reviewRoutes(store: FakeStore): Route[] {
  const notesOf = (n: string) => store.reviewNotes.filter((c) => c.pull === Number(n));
  return [
    repoRoute('GET', '/pulls/(\\d+)/comments', ({ arg }, req) => {
      const found = notesOf(arg).filter((c) => !c.state);
      if (req.query.direction === 'desc') found.reverse();
      return { status: 200, body: found.map(reviewCommentJson) };
    }),
    repoRoute('GET', '/pulls/(\\d+)/reviews', ({ arg }) => ({
      status: 200,
      body: notesOf(arg)
        .filter((c) => c.state)
        .map(reviewJson),
    })),
    repoRoute('POST', '/pulls/(\\d+)/requested_reviewers', (_, req) => {
      const reviewers = (req.body as { reviewers?: string[] } | undefined)?.reviewers ?? [];
      return { status: 201, body: { requested_reviewers: reviewers.map(userJson) } };
    }),
  ];
}
