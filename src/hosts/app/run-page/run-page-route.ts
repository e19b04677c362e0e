/**
 * `GET /runs/<id>` on `serve`: the run page (render-run-page.ts), for a link this server signed
 * (run-page-link.ts) or with the dashboard's password (ADMIN_PASSWORD, basic auth). Anything else
 * — a guessed id, an altered id, expiry or signature, an expired link, a wrong password, a run
 * that does not exist — gets the same 404, which says nothing about the run.
 */
import type { ServerResponse } from 'node:http';
import type { HttpHandler } from '../../../http-handler.js';
import type { RunStore } from '../../../runs/run-record.js';
import { isRunPageId, RUN_PAGE_PATH, type RunPageLinks } from '../../../runs/run-page-link.js';
import { passwordMatches } from '../admin-queues.js';
import { html } from '../html.js';
import { RUN_PAGE_HEADERS, runPageDocument } from './run-page-document.js';
import { renderRunPage } from './render-run-page.js';

const NOT_FOUND = runPageDocument(
  'Not found · Autofix',
  html`<h1>Not found</h1>
    <p>There is no page here, or the link has expired.</p>`,
);

function answer(res: ServerResponse, status: number, body: string): true {
  res.writeHead(status, RUN_PAGE_HEADERS).end(body);
  return true;
}

/** The run id of a `/runs/<id>` path, or undefined for any other path. */
function runIdOf(path: string): string | undefined {
  if (!path.startsWith(RUN_PAGE_PATH)) return undefined;
  try {
    return decodeURIComponent(path.slice(RUN_PAGE_PATH.length));
  } catch {
    return '';
  }
}

export function runPageRoute(options: {
  runs: Pick<RunStore, 'get'>;
  /** Checks signed links (`serve` always has the key); undefined: only the password opens a page. */
  links: Pick<RunPageLinks, 'verify'> | undefined;
  password: string | undefined;
  redact: (text: string) => string;
  now?: () => number;
}): HttpHandler {
  const now = options.now ?? Date.now;
  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://run-page.invalid');
    const runId = runIdOf(url.pathname);
    if (runId === undefined || req.method !== 'GET') return false;
    if (!isRunPageId(runId)) return answer(res, 404, NOT_FOUND);
    const q = url.searchParams;
    const signed = options.links?.verify(runId, q.get('expires'), q.get('sig'), now()) ?? false;
    const { password } = options;
    const admin = password ? passwordMatches(req.headers.authorization, password) : false;
    if (!signed && !admin) return answer(res, 404, NOT_FOUND);
    const run = await options.runs.get(runId).catch(() => null);
    if (run === null)
      return answer(res, 503, runPageDocument('Unavailable', html`<h1>Try again later</h1>`));
    if (!run) return answer(res, 404, NOT_FOUND);
    return answer(res, 200, renderRunPage(run, options.redact));
  };
}
