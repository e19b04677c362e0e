/**
 * Issues and what hangs on them: an issue (those set with `setIssue`, else a placeholder), its
 * comments (every comment is the bot's: only the app writes here), reactions and labels.
 */
import { userJson } from '../repository-json.js';
import { NOT_FOUND, repoRoute, type Route } from '../route.js';
import type { FakeStore } from '../store.js';
import type { FakeComment } from '../types.js';

const ISSUE_ID_BASE = 500_000;

function commentJson(store: FakeStore, at: { owner: string; repo: string }, c: FakeComment) {
  return {
    id: c.id,
    body: c.body,
    html_url: `${store.base}/issues/${c.issueNumber}#issuecomment-${c.id}`,
    issue_url: `${store.base}/api/v3/repos/${at.owner}/${at.repo}/issues/${c.issueNumber}`,
    user: userJson(store.botLogin),
  };
}

/** A string field of a JSON body ('' when absent or not a string). */
const textOf = (body: unknown, key: string): string => {
  const value = (body as Record<string, unknown> | undefined)?.[key];
  return typeof value === 'string' ? value : '';
};

function commentRoutes(store: FakeStore): Route[] {
  return [
    repoRoute('GET', '/issues/(\\d+)/comments', (at) => ({
      status: 200,
      body: [...store.comments.values()]
        .filter((c) => c.issueNumber === Number(at.arg))
        .map((c) => commentJson(store, at, c)),
    })),
    repoRoute('POST', '/issues/(\\d+)/comments', (at, req) => {
      const body = textOf(req.body, 'body');
      const comment = { id: store.nextId(), issueNumber: Number(at.arg), body, history: [body] };
      store.comments.set(comment.id, comment);
      return { status: 201, body: commentJson(store, at, comment) };
    }),
    repoRoute('PATCH', '/issues/comments/(\\d+)', (at, req) => {
      const comment = store.comments.get(Number(at.arg));
      if (!comment) return NOT_FOUND;
      comment.body = textOf(req.body, 'body');
      comment.history.push(comment.body);
      return { status: 200, body: commentJson(store, at, comment) };
    }),
    repoRoute('POST', '/issues/(?:comments/)?\\d+/reactions', (_, req) => ({
      status: 201,
      body: { id: store.nextId(), content: textOf(req.body, 'content') },
    })),
  ];
}

function labelRoutes(store: FakeStore): Route[] {
  return [
    repoRoute('GET', '/labels/(.+)', ({ arg: name }) =>
      store.labels.has(name) ? { status: 200, body: { name } } : NOT_FOUND,
    ),
    repoRoute('POST', '/labels', (_, req) => {
      const name = textOf(req.body, 'name');
      if (store.labels.has(name)) return { status: 422, body: { message: 'Validation Failed' } };
      store.labels.add(name);
      return { status: 201, body: req.body };
    }),
    repoRoute('POST', '/issues/(\\d+)/labels', (_, req) => {
      const added = (req.body as { labels?: string[] } | undefined)?.labels ?? [];
      for (const name of added) store.labels.add(name);
      return { status: 200, body: added.map((name) => ({ name })) };
    }),
  ];
}

export function issueRoutes(store: FakeStore): Route[] {
  return [
    repoRoute('GET', '/issues/(\\d+)', ({ arg }) => {
      const number = Number(arg);
      const issue = store.issues.get(number) ?? { title: `Issue ${number}`, body: '' };
      return {
        status: 200,
        body: {
          id: ISSUE_ID_BASE + number,
          number,
          ...issue,
          state: 'open',
          labels: [],
          html_url: `${store.base}/issues/${number}`,
          user: userJson('octocat'),
        },
      };
    }),
    ...commentRoutes(store),
    ...labelRoutes(store),
  ];
}
