/**
 * Checks: check runs created and updated (only by the app that owns them), read, listed for a
 * commit (GitHub's `filter=latest` by default) with their annotations, and an Actions job's log
 * through the API's redirect to a download URL. The fake keeps no check suites or commit
 * statuses: the app reads neither.
 */
import { applyCheckRun, checkRunJson, type CheckRunBody } from '../check-run-body.js';
import { NOT_FOUND, perPage, repoRoute, route, type Route } from '../route.js';
import type { FakeStore } from '../store.js';
import type { FakeCheckRun, RecordedRequest } from '../types.js';

const ANNOTATIONS_PER_PAGE_MAX = 100;

/** The runs on `ref` that the query's filters keep. */
function runsForRef(store: FakeStore, ref: string, req: RecordedRequest): FakeCheckRun[] {
  const q = req.query;
  const found = store.checkRuns.filter(
    (r) =>
      r.head_sha === ref &&
      (!q.check_name || r.name === q.check_name) &&
      (!q.app_id || r.app.id === Number(q.app_id)) &&
      (!q.status || r.status === q.status),
  );
  if ((q.filter ?? 'latest') !== 'latest') return found;
  // GitHub's default filter: the most recent run of each name (per app).
  return found.filter(
    (r) => !found.some((o) => o.name === r.name && o.app.id === r.app.id && o.id > r.id),
  );
}

function checkRunRoutes(store: FakeStore): Route[] {
  const find = (id: string) => store.checkRuns.find((r) => r.id === Number(id));
  const json = (r: FakeCheckRun) => checkRunJson(store.base, r);
  return [
    repoRoute('POST', '/check-runs', (_, req) => {
      const body = (req.body ?? {}) as CheckRunBody;
      if (!body.name || !body.head_sha) {
        return { status: 422, body: { message: 'name and head_sha are required' } };
      }
      const run = store.addCheckRun({ name: body.name, head_sha: body.head_sha });
      const refused = applyCheckRun(run, body);
      if (!refused) return { status: 201, body: json(run) };
      store.checkRuns.splice(store.checkRuns.indexOf(run), 1);
      return refused;
    }),
    repoRoute('PATCH', '/check-runs/(\\d+)', ({ arg }, req) => {
      const run = find(arg);
      if (!run) return NOT_FOUND;
      const own = store.ownApp.id;
      if (run.app.id !== own)
        return { status: 403, body: { message: `Invalid app_id \`${own}\`` } };
      const refused = applyCheckRun(run, (req.body ?? {}) as CheckRunBody);
      return refused ?? { status: 200, body: json(run) };
    }),
    repoRoute('GET', '/check-runs/(\\d+)', ({ arg }) => {
      const run = find(arg);
      return run ? { status: 200, body: json(run) } : NOT_FOUND;
    }),
    repoRoute('GET', '/check-runs/(\\d+)/annotations', ({ arg }, req) => {
      const run = find(arg);
      if (!run) return NOT_FOUND;
      const size = perPage(req, ANNOTATIONS_PER_PAGE_MAX);
      const page = Math.max(Number(req.query.page ?? 1) || 1, 1);
      return { status: 200, body: run.annotations.slice((page - 1) * size, page * size) };
    }),
    repoRoute('GET', '/commits/([^/]+)/check-runs', ({ arg }, req) => {
      const found = runsForRef(store, arg, req);
      return { status: 200, body: { total_count: found.length, check_runs: found.map(json) } };
    }),
  ];
}

function jobLogRoutes(store: FakeStore): Route[] {
  const logOf = (id: string) => store.checkRuns.find((r) => r.id === Number(id))?.log;
  return [
    repoRoute('GET', '/actions/jobs/(\\d+)/logs', ({ arg }) =>
      // GitHub redirects to a short-lived download URL.
      logOf(arg)
        ? { status: 302, headers: { location: `${store.base}/_job-logs/${arg}` } }
        : NOT_FOUND,
    ),
    route('GET', /^\/_job-logs\/(\d+)$/, (id) => {
      const log = logOf(id);
      return log === undefined ? NOT_FOUND : { status: 200, text: log };
    }),
  ];
}

export function checkRoutes(store: FakeStore): Route[] {
  return [...checkRunRoutes(store), ...jobLogRoutes(store)];
}
