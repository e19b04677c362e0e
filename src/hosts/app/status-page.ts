/**
 * `GET /` of a configured server: what a first visitor needs to see that the app works — its
 * name, whether webhooks arrive, the queue depth of each stage and how the last runs ended, with
 * links to Bull Board and /metrics. Plain server-rendered HTML (html.ts escapes every value).
 *
 * Repository names, issue numbers and run ids are shown only behind the dashboard's password
 * (ADMIN_PASSWORD, the same basic auth as /admin/queues). Without a password configured the page
 * is public and shows counts only. No secret is ever shown.
 */
import type { JobType, Queue } from 'bullmq';
import type { HttpHandler } from '../../http-handler.js';
import type { Run, RunEnding, RunStore } from '../../runs/run-record.js';
import { stagesOf } from '../../runs/run-addressing.js';
import type { PrOutcomeStore, RepoOutcomes } from '../../runs/pr-outcomes.js';
import { TRIGGER_QUEUE } from '../../intake/trigger-types.js';
import { STAGES, type StageName } from '../../runs/types.js';
import { ADMIN_PATH, askForPassword, passwordMatches } from './admin-queues.js';
import { html, page, type SafeHtml } from './html.js';
import { OUTCOME_WINDOW_DAYS, OUTCOME_WINDOW_MS, renderOutcomes } from './outcomes-table.js';

/** Verified webhook deliveries this process received (signature checked by Probot). */
export interface WebhookActivity {
  record(event: string): void;
  snapshot(): { count: number; lastAt?: number; lastEvent?: string; since: number };
}

export function createWebhookActivity(now: () => number = Date.now): WebhookActivity {
  const since = now();
  let count = 0;
  let lastAt: number | undefined;
  let lastEvent: string | undefined;
  return {
    record(event) {
      count += 1;
      lastAt = now();
      lastEvent = event;
    },
    snapshot: () => ({
      count,
      since,
      ...(lastAt === undefined ? {} : { lastAt }),
      ...(lastEvent === undefined ? {} : { lastEvent }),
    }),
  };
}

const COUNTED: JobType[] = [
  'waiting',
  'prioritized',
  'waiting-children',
  'active',
  'delayed',
  'failed',
];

export interface QueueDepth {
  name: string;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

export interface RunRow {
  runId: string;
  repo: string;
  issue: number;
  stage: StageName;
  /** `finished`, `stopped`, `failed` or `in progress`. */
  outcome: 'finished' | 'stopped' | 'failed' | 'abandoned' | 'parked' | 'in progress';
  /** What the outcome means here (stop reason, failing stage and error code, job state). */
  detail: string;
  at: number;
}

export interface StatusData {
  appName: string;
  webhooks: ReturnType<WebhookActivity['snapshot']>;
  queues?: QueueDepth[];
  runs?: RunRow[];
  /** The app's PRs decided in the last 30 days, per repository. */
  outcomes?: RepoOutcomes[];
  /** Repository names, issues and run ids may be shown (the visitor gave the password). */
  identifying: boolean;
  adminEnabled: boolean;
  /** The webhook relay's channel origin when WEBHOOK_PROXY_URL is set. */
  relay?: string;
  now: number;
}

async function depth(name: string, queue: Queue): Promise<QueueDepth> {
  const c = await queue.getJobCounts(...COUNTED);
  return {
    name,
    waiting: (c.waiting ?? 0) + (c.prioritized ?? 0) + (c['waiting-children'] ?? 0),
    active: c.active ?? 0,
    delayed: c.delayed ?? 0,
    failed: c.failed ?? 0,
  };
}

export async function queueDepths(
  triggers: Queue,
  queues: Record<StageName, Queue>,
): Promise<QueueDepth[]> {
  return Promise.all([
    depth(`${TRIGGER_QUEUE} (admission)`, triggers),
    ...STAGES.map((stage) => depth(stage, queues[stage])),
  ]);
}

function describeEnding(ending: RunEnding): Pick<RunRow, 'outcome' | 'detail'> {
  if (ending.outcome === 'failed') {
    const { stage, error } = ending.failure;
    return { outcome: 'failed', detail: `${stage}: ${error.code}` };
  }
  if (ending.outcome === 'abandoned') return { outcome: 'abandoned', detail: ending.reason };
  if (ending.stop) {
    const reason = ending.stop.reason;
    return {
      outcome: 'stopped',
      detail: reason.length > 120 ? `${reason.slice(0, 119)}…` : reason,
    };
  }
  return { outcome: 'finished', detail: 'pull request opened' };
}

/** The stage a run is at: the last of its route that has started. */
function currentStage(run: Run): StageName {
  const started = STAGES.filter((stage) => run.stages[stage]);
  return started[started.length - 1] ?? stagesOf(run)[0]!;
}

function describeRun(run: Run): Pick<RunRow, 'outcome' | 'detail'> {
  if (run.ending) return describeEnding(run.ending);
  const stage = currentStage(run);
  if (run.parked)
    return { outcome: 'parked', detail: `before ${run.parked.resumeAt}: ${run.parked.reason}` };
  return { outcome: 'in progress', detail: `${stage} ${run.stages[stage]?.state ?? 'waiting'}` };
}

/** The latest runs, newest first, from the run store (records kept 30 days). */
export async function recentRuns(runs: RunStore, limit = 15): Promise<RunRow[]> {
  const ids = await runs.recent(limit);
  const records = await Promise.all(ids.map((id) => runs.get(id)));
  return records
    .filter((run): run is Run => run !== undefined)
    .map((run) => ({
      runId: run.runId,
      repo: run.repository.fullName,
      issue: run.issue.number,
      stage: currentStage(run),
      at: run.updatedAt,
      ...describeRun(run),
    }));
}

const when = (at: number, now: number): string => {
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  return `${new Date(at).toISOString()} (${seconds} s ago)`;
};

function renderRuns(runs: RunRow[] | undefined, identifying: boolean, now: number): SafeHtml {
  if (!runs) return html`<p>Runs: unavailable (Redis did not answer).</p>`;
  if (runs.length === 0) return html`<p id="runs">No runs yet.</p>`;
  if (!identifying) {
    const counts = new Map<string, number>();
    for (const run of runs) counts.set(run.outcome, (counts.get(run.outcome) ?? 0) + 1);
    return html`<p>
        Outcomes of the last ${runs.length} runs (repositories are shown with the dashboard
        password, ADMIN_PASSWORD):
      </p>
      <table id="runs">
        <tr>
          <th>Outcome</th>
          <th>Runs</th>
        </tr>
        ${[...counts].map(
          ([outcome, n]) =>
            html`<tr>
              <td>${outcome}</td>
              <td>${n}</td>
            </tr>`,
        )}
      </table>`;
  }
  return html`<table id="runs">
    <tr>
      <th>Repository</th>
      <th>Issue</th>
      <th>Outcome</th>
      <th>Detail</th>
      <th>Last change</th>
      <th>Run</th>
    </tr>
    ${runs.map(
      (r) =>
        html`<tr>
          <td>${r.repo}</td>
          <td>#${r.issue}</td>
          <td>${r.outcome}</td>
          <td>${r.detail}</td>
          <td>${when(r.at, now)}</td>
          <td>
            <a href="/runs/${encodeURIComponent(r.runId)}"><code>${r.runId}</code></a>
          </td>
        </tr>`,
    )}
  </table>`;
}

export function renderStatusPage(data: StatusData): string {
  const { webhooks, now } = data;
  const received =
    webhooks.count === 0
      ? html`<p id="webhooks">
          No webhook has arrived since this process started
          (${new Date(webhooks.since).toISOString()}).
          ${
            data.relay
              ? html`Deliveries are relayed from ${data.relay} (WEBHOOK_PROXY_URL).`
              : html`GitHub must reach <code>/api/github/webhooks</code> on this server; for local
                  development set WEBHOOK_PROXY_URL (README: “Local development: webhook tunnel”).`
          }
        </p>`
      : html`<p id="webhooks">
          Webhooks received: <strong>${webhooks.count}</strong> since this process started; last:
          ${webhooks.lastEvent} at ${webhooks.lastAt ? when(webhooks.lastAt, now) : '?'}.
        </p>`;
  const queues = data.queues
    ? html`<table id="queues">
        <tr>
          <th>Queue</th>
          <th>Waiting</th>
          <th>Active</th>
          <th>Delayed</th>
          <th>Failed</th>
        </tr>
        ${data.queues.map(
          (q) =>
            html`<tr>
              <td>${q.name}</td>
              <td>${q.waiting}</td>
              <td>${q.active}</td>
              <td>${q.delayed}</td>
              <td>${q.failed}</td>
            </tr>`,
        )}
      </table>`
    : html`<p id="queues">Queues: unavailable (Redis did not answer).</p>`;
  return page(
    `${data.appName} · Autofix`,
    html`<h1>${data.appName}</h1>
      <p>Autofix is running.</p>
      <h2>Webhooks</h2>
      ${received}
      <h2>Queues</h2>
      ${queues}
      <h2>Recent runs</h2>
      ${renderRuns(data.runs, data.identifying, now)}
      <h2>PR outcomes, last ${OUTCOME_WINDOW_DAYS} days</h2>
      ${renderOutcomes(data.outcomes, data.identifying)}
      <h2>More</h2>
      <ul>
        <li>
          ${
            data.adminEnabled
              ? html`<a href="${ADMIN_PATH}">${ADMIN_PATH}</a> (Bull Board: jobs, retries)`
              : html`${ADMIN_PATH} is disabled: set ADMIN_PASSWORD to enable it`
          }
        </li>
        <li><a href="/metrics">/metrics</a> (Prometheus)</li>
        <li><a href="/healthz">/healthz</a> · <a href="/readyz">/readyz</a></li>
      </ul>`,
  );
}

const withTimeout = <T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> =>
  Promise.race([
    promise.catch(() => fallback),
    new Promise<T>((resolve) => setTimeout(() => resolve(fallback), ms).unref()),
  ]);

export function statusPage(options: {
  /** The App's name (its bot login, asked from GitHub once); a fallback after 2 s. */
  appName: () => Promise<string>;
  fallbackName: string;
  activity: WebhookActivity;
  triggers: Queue;
  queues: Record<StageName, Queue>;
  runs: RunStore;
  outcomes: Pick<PrOutcomeStore, 'byRepository'>;
  password: string | undefined;
  relay?: string;
  now?: () => number;
}): HttpHandler {
  const { password } = options;
  return async (req, res) => {
    const path = req.url?.split('?')[0];
    if (req.method !== 'GET' || path !== '/') return false;
    if (password && !passwordMatches(req.headers.authorization, password)) {
      askForPassword(res);
      return true;
    }
    const now = (options.now ?? Date.now)();
    const [appName, queues, runs, outcomes] = await Promise.all([
      withTimeout(options.appName(), 2000, options.fallbackName),
      queueDepths(options.triggers, options.queues).catch(() => undefined),
      recentRuns(options.runs).catch(() => undefined),
      options.outcomes.byRepository(now - OUTCOME_WINDOW_MS).catch(() => undefined),
    ]);
    const body = renderStatusPage({
      appName,
      webhooks: options.activity.snapshot(),
      ...(queues ? { queues } : {}),
      ...(runs ? { runs } : {}),
      ...(outcomes ? { outcomes } : {}),
      identifying: Boolean(password),
      adminEnabled: Boolean(password),
      ...(options.relay ? { relay: options.relay } : {}),
      now,
    });
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(body);
    return true;
  };
}
