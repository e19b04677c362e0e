/**
 * A route of the fake GitHub: a method, a path pattern (below `/api/v3`) and the handler that
 * answers it. The route modules (`routes/`) build their lists with `route` and `repoRoute`; the
 * server tries them in order.
 */
import type { RecordedRequest } from './types.js';

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A plain-text body (a job's log) instead of JSON. */
  text?: string;
}

export interface Route {
  method: string;
  pattern: RegExp;
  handle: (match: string[], req: RecordedRequest) => Reply;
}

/** Where a repository route points: the repository and the one value its path captures. */
export interface RepoAt {
  owner: string;
  repo: string;
  /** The path's own capture (an issue number, a branch, a file…); '' when it has none. */
  arg: string;
}

export const NOT_FOUND: Reply = { status: 404, body: { message: 'Not Found' } };

/** A route outside a repository; `handle` gets the pattern's first capture ('' without one). */
export function route(
  method: string,
  pattern: RegExp,
  handle: (arg: string, req: RecordedRequest) => Reply,
): Route {
  return { method, pattern, handle: (m, req) => handle(m[1] ?? '', req) };
}

/** A route below `/repos/{owner}/{repo}`; `suffix` is a regular expression with at most one capture. */
export function repoRoute(
  method: string,
  suffix: string,
  handle: (at: RepoAt, req: RecordedRequest) => Reply,
): Route {
  return {
    method,
    pattern: new RegExp(`^/repos/([^/]+)/([^/]+)${suffix}$`),
    handle: (m, req) => handle({ owner: m[1] ?? '', repo: m[2] ?? '', arg: m[3] ?? '' }, req),
  };
}

/** A bounded page size from `per_page` (GitHub's default 30). */
export function perPage(req: RecordedRequest, max: number): number {
  return Math.min(Math.max(Number(req.query.per_page ?? 30) || 30, 1), max);
}
