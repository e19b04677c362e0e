/**
 * A fake GitHub REST API over real HTTP (node:http on 127.0.0.1:0, loopback only), for
 * `autofix demo --app` and for the tests and benchmarks that run the app in-process or as a child
 * process (nock cannot reach those); test/helpers/fake-github.ts re-exports it. Point the app at
 * it with `GHE_HOST=127.0.0.1:<port> GHE_PROTOCOL=http` (Probot's baseUrl becomes `<url>/api/v3`).
 * It keeps just enough state for the paths the app uses, records every request, checks that
 * app endpoints carry a JWT signed by the app key and the others an installation token it minted,
 * and can fail chosen requests (e.g. 502 once).
 */
import { createHmac, randomBytes, randomUUID, verify, type KeyObject } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path below `/api/v3`, decoded, without the query. */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** Epoch milliseconds (sub-ms precision) when the request arrived. */
  at: number;
}

export interface FakeComment {
  id: number;
  issueNumber: number;
  body: string;
  /** Every body the comment had, the first included. */
  history: string[];
}

export interface FakePull {
  number: number;
  title: string;
  body: string;
  head: string;
  base: string;
  draft: boolean;
  author: string;
  state: 'open' | 'closed';
}

/** A review's line comment or verdict on a pull request (`association`: OWNER, MEMBER, COLLABORATOR, NONE…). */
export interface FakeReviewNote {
  pull: number;
  author: string;
  body: string;
  association?: string;
  /** Line comment: file and line; `outdated` when the line left the diff. */
  path?: string;
  line?: number;
  outdated?: boolean;
  /** Review verdict (APPROVED, CHANGES_REQUESTED, COMMENTED): makes it a review, not a line comment. */
  state?: string;
}

/** A check run as the fake keeps it (`POST/PATCH /repos/{o}/{r}/check-runs`). */
export interface FakeCheckRun {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  external_id?: string;
  details_url?: string;
  started_at: string;
  completed_at?: string;
  output: { title?: string; summary?: string; text?: string };
  /** Every annotation sent, in order: an update's are appended, as GitHub does. */
  annotations: Record<string, unknown>[];
  /** The app that owns it: only that app may update it. */
  app: { id: number; slug: string };
  /** Every body received for it: the create, then each update. */
  history: unknown[];
  /** Its job's log, for a GitHub Actions check run (`GET /actions/jobs/{id}/logs`). */
  log?: string;
}

/**
 * What the fake reads from the repository's git data, when a test wires it to a real (bare)
 * repository: a pull request's head and base commits and its commits.
 */
export interface FakeRepoReader {
  /** The commit a branch points at, or undefined. */
  refSha(ref: string): string | undefined;
  /** The commits on `head` that are not on `base`, oldest first. */
  commits(base: string, head: string): { sha: string; message: string }[];
}

/** GitHub's limit of annotations per create or update request. */
const CHECK_RUN_ANNOTATIONS_PER_REQUEST = 50;

interface Failure {
  method: string;
  path: string | RegExp;
  status: number;
  times: number;
}

/**
 * A disruption (bench:chaos): the next `times` requests matching `method` (`*` = any) and `path`
 * are answered after `delayMs`, with `status`/`headers` instead of the real answer when given
 * (e.g. 403 with `Retry-After`), or not at all with `drop` (the socket is destroyed after the
 * delay: a time-out as the client sees it). Without status or drop, only the delay.
 */
export interface Disruption {
  method: string;
  path: string | RegExp;
  times: number;
  status?: number;
  headers?: Record<string, string>;
  message?: string;
  delayMs?: number;
  drop?: boolean;
}

/** Takes the first matching disruption and applies it; true when the request was answered. */
async function disrupt(
  disruptions: Disruption[],
  record: { method: string; path: string },
  res: ServerResponse,
): Promise<boolean> {
  const d = disruptions.find(
    (x) => (x.method === '*' || x.method === record.method) && matches(x.path, record.path),
  );
  if (!d) return false;
  if (--d.times <= 0) disruptions.splice(disruptions.indexOf(d), 1);
  if (d.delayMs) await new Promise((r) => setTimeout(r, d.delayMs));
  if (d.drop) {
    res.socket?.destroy();
    return true;
  }
  if (d.status === undefined) return false;
  const text = JSON.stringify({ message: d.message ?? 'injected failure' });
  res
    .writeHead(d.status, { 'content-type': 'application/json; charset=utf-8', ...d.headers })
    .end(text);
  return true;
}

type Reply = {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A plain-text body (a job's log) instead of JSON. */
  text?: string;
};
type Route = [
  method: string,
  pattern: RegExp,
  handle: (m: string[], req: RecordedRequest) => Reply,
];

export interface FakeGitHubOptions {
  /** Public key of the app: app endpoints must present a JWT it verifies. */
  appPublicKey?: KeyObject | string;
  appSlug?: string;
  appId?: number;
  /** Role of users not set with setPermission. */
  defaultRole?: string;
}

export interface FakeGitHub extends FakeHookDeliveries {
  port: number;
  /** `127.0.0.1:<port>`, the value of GHE_HOST. */
  host: string;
  apiUrl: string;
  env: { GHE_HOST: string; GHE_PROTOCOL: 'http' };
  botLogin: string;
  requests: RecordedRequest[];
  comments: Map<number, FakeComment>;
  pulls: FakePull[];
  labels: Set<string>;
  tokens: Set<string>;
  calls(method: string, path: string | RegExp): RecordedRequest[];
  failNext(method: string, path: string | RegExp, status?: number, times?: number): void;
  /** Delays, drops or answers the next matching requests (see Disruption). */
  disruptNext(disruption: Disruption): void;
  /**
   * Runs `run` at the next matching request (e.g. SIGKILL the worker that sent it): `before`
   * the fake acts on it (the request is then dropped unanswered, nothing done), or `after` it
   * acted and before it answers (the side effect happened; the caller never hears of it).
   */
  interceptNext(
    method: string,
    path: string | RegExp,
    when: 'before' | 'after',
    run: () => void | Promise<void>,
  ): void;
  setPermission(login: string, role: string): void;
  setFile(path: string, content: string | undefined): void;
  setIssue(number: number, title: string, body: string): void;
  addPull(pull: Omit<FakePull, 'number' | 'state'> & { number?: number }): FakePull;
  addReviewNote(note: FakeReviewNote): void;
  /** Check runs in creation order (this app's and those added with addCheckRun). */
  checkRuns: FakeCheckRun[];
  /** Reads pull requests' commits from a real repository (see FakeRepoReader). */
  setRepoReader(reader: FakeRepoReader): void;
  /** The base branch's required status checks (branch protection). */
  setRequiredChecks(branch: string, contexts: string[]): void;
  /** A check run that exists already, e.g. another app's (`app`) of the same name. */
  addCheckRun(
    run: Pick<FakeCheckRun, 'name' | 'head_sha'> &
      Partial<Omit<FakeCheckRun, 'id' | 'name' | 'head_sha'>>,
  ): FakeCheckRun;
  close(): Promise<void>;
}

const matches = (pattern: string | RegExp, path: string): boolean =>
  typeof pattern === 'string' ? pattern === path : pattern.test(path);

function verifyJwt(token: string, key: KeyObject | string): boolean {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) return false;
  return verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    key,
    Buffer.from(signature, 'base64url'),
  );
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

// ---- The App's webhook deliveries (`/app/hook/deliveries`): the missed-delivery reconciler ----

/** One delivery attempt as `GET /app/hook/deliveries` lists it. */
export interface FakeDeliveryAttempt {
  id: number;
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  duration: number;
  status: string;
  status_code: number;
  event: string;
  action: string | null;
  installation_id: number | null;
  repository_id: number | null;
}

/** A test's delivery record (`addDelivery`): an attempt that GitHub made (or could not make). */
export interface FakeDeliverySpec {
  /** X-GitHub-Delivery; a new UUID when omitted (several attempts share one guid). */
  guid?: string;
  event: string;
  action?: string | null;
  /** The body GitHub sent; needed for a real redelivery (`redeliverTo`). */
  payload?: Record<string, unknown>;
  /** 0 = no connection or timed out (the default: the server was down). */
  statusCode?: number;
  /** GitHub's wording; derived from the status code when omitted. */
  status?: string;
  deliveredAt?: Date | string;
  redelivery?: boolean;
  installationId?: number | null;
  repositoryId?: number | null;
}

/** A `POST /app/hook/deliveries/:id/attempts` the fake received. */
export interface FakeRedeliveryRequest {
  /** The attempt that was asked to be redelivered. */
  deliveryId: number;
  guid: string;
  /** The new attempt, once the fake made it (only with a target). */
  attempt?: FakeDeliveryAttempt;
}

export interface FakeHookDeliveries {
  /** Every attempt, in the order recorded (ids ascending). */
  deliveries: FakeDeliveryAttempt[];
  redeliveryRequests: FakeRedeliveryRequest[];
  addDelivery(spec: FakeDeliverySpec): FakeDeliveryAttempt;
  /**
   * Where a redelivery goes (the app's webhook URL, path included) and the secret it is signed
   * with. Without a target a redelivery request is only recorded, as if GitHub never got to it.
   */
  redeliverTo(target: { url: string; secret: string } | undefined): void;
  /**
   * Sends a delivery for real (as GitHub would: signed, with the guid) and records the attempt
   * with the app's answer; needs a target.
   */
  sendDelivery(
    spec: FakeDeliverySpec & { payload: Record<string, unknown> },
  ): Promise<FakeDeliveryAttempt>;
  /** Waits for the redeliveries under way. */
  redeliveriesSettled(): Promise<void>;
}

const HOOK_DELIVERIES_PER_PAGE_MAX = 100;
const HOOK_TIMEOUT_MS = 10_000;

const hookStatusText = (code: number): string =>
  code === 0 ? 'timed out' : code >= 200 && code < 300 ? 'OK' : `Invalid HTTP Response: ${code}`;

function createHookDeliveries(base: () => string): {
  routes: Route[];
  api: FakeHookDeliveries;
  close(): Promise<void>;
} {
  const deliveries: FakeDeliveryAttempt[] = [];
  const payloads = new Map<string, { event: string; body: string }>();
  const redeliveryRequests: FakeRedeliveryRequest[] = [];
  const pending = new Set<Promise<unknown>>();
  const aborts = new AbortController();
  let target: { url: string; secret: string } | undefined;
  let nextDeliveryId = 90_000_000_001;

  const record = (spec: FakeDeliverySpec, guid: string, statusCode: number, ms = 0) => {
    const attempt: FakeDeliveryAttempt = {
      id: nextDeliveryId++,
      guid,
      delivered_at: new Date(spec.deliveredAt ?? Date.now()).toISOString().replace(/\.\d+Z$/, 'Z'),
      redelivery: spec.redelivery ?? false,
      duration: ms / 1000,
      status: spec.status ?? hookStatusText(statusCode),
      status_code: statusCode,
      event: spec.event,
      action: spec.action ?? (spec.payload?.action as string | undefined) ?? null,
      installation_id:
        spec.installationId !== undefined
          ? spec.installationId
          : ((spec.payload?.installation as { id?: number } | undefined)?.id ?? null),
      repository_id:
        spec.repositoryId !== undefined
          ? spec.repositoryId
          : ((spec.payload?.repository as { id?: number } | undefined)?.id ?? null),
    };
    deliveries.push(attempt);
    return attempt;
  };
  const remember = (spec: FakeDeliverySpec, guid: string): void => {
    if (spec.payload) payloads.set(guid, { event: spec.event, body: JSON.stringify(spec.payload) });
  };

  /** POSTs the stored body to the target, as GitHub's hookshot does; the status code it got. */
  const post = async (guid: string): Promise<{ code: number; ms: number }> => {
    const stored = payloads.get(guid);
    if (!target || !stored) return { code: 0, ms: 0 };
    const started = performance.now();
    try {
      const res = await fetch(target.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'GitHub-Hookshot/fake',
          'x-github-event': stored.event,
          'x-github-delivery': guid,
          'x-github-hook-id': '1',
          'x-github-hook-installation-target-type': 'integration',
          'x-hub-signature-256': `sha256=${createHmac('sha256', target.secret).update(stored.body).digest('hex')}`,
        },
        body: stored.body,
        signal: AbortSignal.any([aborts.signal, AbortSignal.timeout(HOOK_TIMEOUT_MS)]),
      });
      await res.arrayBuffer();
      return { code: res.status, ms: performance.now() - started };
    } catch {
      return { code: 0, ms: performance.now() - started };
    }
  };
  const track = <T>(work: Promise<T>): Promise<T> => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
    return work;
  };

  const routes: Route[] = [
    [
      'GET',
      /^\/app\/hook\/deliveries$/,
      (_, req) => {
        const perPage = Math.min(
          Math.max(Number(req.query.per_page ?? 30) || 30, 1),
          HOOK_DELIVERIES_PER_PAGE_MAX,
        );
        // The cursor is opaque to clients; here `v1_<id>` = the attempts older than that id.
        const before = /^v1_(\d+)$/.exec(req.query.cursor ?? '')?.[1];
        if (req.query.cursor !== undefined && !before)
          return { status: 400, body: { message: 'Invalid cursor' } };
        const newestFirst = [...deliveries]
          .reverse()
          .filter((d) => before === undefined || d.id < Number(before));
        const page = newestFirst.slice(0, perPage);
        const headers: Record<string, string> = {};
        if (newestFirst.length > perPage) {
          const next = `${base()}/api/v3/app/hook/deliveries?per_page=${perPage}&cursor=v1_${page.at(-1)!.id}`;
          headers.link = `<${next}>; rel="next"`;
        }
        return { status: 200, body: page, headers };
      },
    ],
    [
      'POST',
      /^\/app\/hook\/deliveries\/(\d+)\/attempts$/,
      ([, id]) => {
        const original = deliveries.find((d) => d.id === Number(id));
        if (!original) return { status: 404, body: { message: 'Not Found' } };
        const request: FakeRedeliveryRequest = { deliveryId: original.id, guid: original.guid };
        redeliveryRequests.push(request);
        if (target && payloads.has(original.guid)) {
          void track(
            post(original.guid).then(({ code, ms }) => {
              request.attempt = record(
                {
                  event: original.event,
                  action: original.action,
                  installationId: original.installation_id,
                  repositoryId: original.repository_id,
                  redelivery: true,
                },
                original.guid,
                code,
                ms,
              );
            }),
          );
        }
        return { status: 202, body: {} };
      },
    ],
  ];

  return {
    routes,
    api: {
      deliveries,
      redeliveryRequests,
      addDelivery(spec) {
        const guid = spec.guid ?? randomUUID();
        remember(spec, guid);
        return record(spec, guid, spec.statusCode ?? 0);
      },
      redeliverTo: (t) => void (target = t),
      sendDelivery(spec) {
        if (!target) throw new Error('sendDelivery needs redeliverTo(...) first');
        const guid = spec.guid ?? randomUUID();
        remember(spec, guid);
        return track(
          post(guid).then(({ code, ms }) =>
            record({ ...spec, deliveredAt: spec.deliveredAt ?? new Date() }, guid, code, ms),
          ),
        );
      },
      async redeliveriesSettled() {
        while (pending.size > 0) await Promise.allSettled([...pending]);
      },
    },
    async close() {
      aborts.abort();
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const slug = options.appSlug ?? 'autofix-test';
  const botLogin = `${slug}[bot]`;
  const requests: RecordedRequest[] = [];
  const failures: Failure[] = [];
  const disruptions: Disruption[] = [];
  const comments = new Map<number, FakeComment>();
  const pulls: FakePull[] = [];
  const labels = new Set<string>();
  const tokens = new Set<string>();
  const roles = new Map<string, string>();
  const files = new Map<string, string>();
  const issues = new Map<number, { title: string; body: string }>();
  const reviewNotes: (FakeReviewNote & { id: number; at: string })[] = [];
  const checkRuns: FakeCheckRun[] = [];
  const requiredChecks = new Map<string, string[]>();
  let repoReader: FakeRepoReader | undefined;
  const ownApp = { id: options.appId ?? 1, slug };
  let nextId = 1000;
  let nextPull = 100;
  let base = '';

  const commentJson = (c: FakeComment) => ({
    id: c.id,
    body: c.body,
    html_url: `${base}/issues/${c.issueNumber}#issuecomment-${c.id}`,
    user: { login: botLogin, type: 'Bot' },
  });
  const pullJson = (p: FakePull) => ({
    number: p.number,
    title: p.title,
    body: p.body,
    draft: p.draft,
    state: p.state,
    html_url: `${base}/pull/${p.number}`,
    head: { ref: p.head, sha: repoReader?.refSha(p.head) ?? '' },
    base: { ref: p.base, sha: repoReader?.refSha(p.base) ?? '' },
    user: { login: p.author, type: p.author.endsWith('[bot]') ? 'Bot' : 'User' },
  });
  const addPull: FakeGitHub['addPull'] = (spec) => {
    const pull: FakePull = { ...spec, number: spec.number ?? nextPull++, state: 'open' };
    pulls.push(pull);
    return pull;
  };
  const repoPath = '/repos/([^/]+)/([^/]+)';
  const addCheckRun: FakeGitHub['addCheckRun'] = (spec) => {
    const run: FakeCheckRun = {
      status: 'queued',
      conclusion: null,
      started_at: new Date().toISOString(),
      output: {},
      annotations: [],
      app: ownApp,
      history: [],
      ...spec,
      id: nextId++,
    };
    checkRuns.push(run);
    return run;
  };
  const checkRunJson = (r: FakeCheckRun) => ({
    id: r.id,
    name: r.name,
    head_sha: r.head_sha,
    status: r.status,
    conclusion: r.conclusion,
    external_id: r.external_id ?? '',
    details_url: r.details_url ?? null,
    html_url: `${base}/runs/${r.id}`,
    started_at: r.started_at,
    completed_at: r.completed_at ?? null,
    output: {
      title: r.output.title ?? null,
      summary: r.output.summary ?? null,
      text: r.output.text ?? null,
      annotations_count: r.annotations.length,
    },
    app: { ...r.app, name: r.app.slug },
  });
  type CheckRunBody = Partial<Omit<FakeCheckRun, 'output'>> & {
    output?: FakeCheckRun['output'] & { annotations?: Record<string, unknown>[] };
  };
  /** Applies a create or update body; a 422 reply when GitHub would refuse it. */
  const applyCheckRun = (run: FakeCheckRun, body: CheckRunBody): Reply | undefined => {
    const annotations = body.output?.annotations ?? [];
    if (annotations.length > CHECK_RUN_ANNOTATIONS_PER_REQUEST) {
      return { status: 422, body: { message: 'Only 50 annotations are allowed per request' } };
    }
    if (body.status === 'completed' && !body.conclusion && !run.conclusion) {
      return { status: 422, body: { message: 'conclusion is required when status is completed' } };
    }
    for (const key of ['name', 'status', 'external_id', 'details_url', 'completed_at'] as const) {
      if (body[key] !== undefined) Object.assign(run, { [key]: body[key] });
    }
    if (body.conclusion !== undefined) {
      run.conclusion = body.conclusion;
      run.status = 'completed';
    }
    if (body.output) {
      const { title, summary, text } = body.output;
      run.output = {
        ...run.output,
        ...(title === undefined ? {} : { title }),
        ...(summary === undefined ? {} : { summary }),
        ...(text === undefined ? {} : { text }),
      };
      run.annotations.push(...annotations);
    }
    run.history.push(body);
    return undefined;
  };

  const routes: Route[] = [
    [
      'POST',
      /^\/app\/installations\/(\d+)\/access_tokens$/,
      () => {
        const token = `ghs_${randomBytes(18).toString('hex')}`;
        tokens.add(token);
        return {
          status: 201,
          body: {
            token,
            expires_at: new Date(Date.now() + 3600_000).toISOString(),
            permissions: {},
          },
        };
      },
    ],
    ['GET', /^\/app$/, () => ({ status: 200, body: { id: options.appId ?? 1, slug, name: slug } })],
    [
      'GET',
      new RegExp(`^${repoPath}$`),
      ([, owner, name]) => ({
        status: 200,
        body: {
          id: 1,
          name,
          full_name: `${owner}/${name}`,
          default_branch: 'main',
          owner: { login: owner },
          clone_url: `${base}/${owner}/${name}.git`,
        },
      }),
    ],
    [
      'GET',
      new RegExp(`^${repoPath}/collaborators/([^/]+)/permission$`),
      ([, , , login]) => {
        const role = roles.get(login!) ?? options.defaultRole ?? 'read';
        const legacy = role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role;
        return { status: 200, body: { permission: legacy, role_name: role, user: { login } } };
      },
    ],
    [
      'GET',
      new RegExp(`^${repoPath}/contents/(.+)$`),
      ([, , , path]) => {
        const text = files.get(path!);
        if (text === undefined) return { status: 404, body: { message: 'Not Found' } };
        return {
          status: 200,
          body: {
            type: 'file',
            encoding: 'base64',
            path,
            content: Buffer.from(text).toString('base64'),
          },
        };
      },
    ],
    [
      'GET',
      new RegExp(`^${repoPath}/issues/(\\d+)$`),
      ([, , , n]) => {
        const issue = issues.get(Number(n)) ?? { title: `Issue ${n}`, body: '' };
        return { status: 200, body: { number: Number(n), ...issue, user: { login: 'octocat' } } };
      },
    ],
    [
      'GET',
      new RegExp(`^${repoPath}/issues/(\\d+)/comments$`),
      ([, , , n]) => ({
        status: 200,
        body: [...comments.values()].filter((c) => c.issueNumber === Number(n)).map(commentJson),
      }),
    ],
    [
      'POST',
      new RegExp(`^${repoPath}/issues/(\\d+)/comments$`),
      ([, , , n], req) => {
        const body = String((req.body as { body?: string }).body ?? '');
        const comment = { id: nextId++, issueNumber: Number(n), body, history: [body] };
        comments.set(comment.id, comment);
        return { status: 201, body: commentJson(comment) };
      },
    ],
    [
      'PATCH',
      new RegExp(`^${repoPath}/issues/comments/(\\d+)$`),
      ([, , , id], req) => {
        const comment = comments.get(Number(id));
        if (!comment) return { status: 404, body: { message: 'Not Found' } };
        comment.body = String((req.body as { body?: string }).body ?? '');
        comment.history.push(comment.body);
        return { status: 200, body: commentJson(comment) };
      },
    ],
    [
      'POST',
      new RegExp(`^${repoPath}/issues/(?:comments/)?\\d+/reactions$`),
      (_, req) => ({
        status: 201,
        body: { id: nextId++, content: (req.body as { content?: string }).content },
      }),
    ],
    [
      'GET',
      new RegExp(`^${repoPath}/labels/(.+)$`),
      ([, , , name]) =>
        labels.has(name!)
          ? { status: 200, body: { name } }
          : { status: 404, body: { message: 'Not Found' } },
    ],
    [
      'POST',
      new RegExp(`^${repoPath}/labels$`),
      (_, req) => {
        const name = String((req.body as { name?: string }).name);
        if (labels.has(name)) return { status: 422, body: { message: 'Validation Failed' } };
        labels.add(name);
        return { status: 201, body: req.body };
      },
    ],
    [
      'POST',
      new RegExp(`^${repoPath}/issues/(\\d+)/labels$`),
      (_, req) => {
        const added = (req.body as { labels?: string[] }).labels ?? [];
        for (const name of added) labels.add(name);
        return { status: 200, body: added.map((name) => ({ name })) };
      },
    ],
    [
      'GET',
      new RegExp(`^${repoPath}/pulls$`),
      (_, req) => {
        const head = req.query.head?.split(':').pop();
        const state = req.query.state ?? 'open';
        const found = pulls.filter(
          (p) => (!head || p.head === head) && (state === 'all' || p.state === state),
        );
        return { status: 200, body: found.map(pullJson) };
      },
    ],
    [
      'GET',
      new RegExp(`^${repoPath}/pulls/(\\d+)$`),
      ([, , , n]) => {
        const pull = pulls.find((p) => p.number === Number(n));
        return pull
          ? { status: 200, body: pullJson(pull) }
          : { status: 404, body: { message: 'Not Found' } };
      },
    ],
    [
      'POST',
      new RegExp(`^${repoPath}/pulls$`),
      (_, req) => {
        const b = req.body as {
          title: string;
          body?: string;
          head: string;
          base: string;
          draft?: boolean;
        };
        const pull = addPull({
          title: b.title,
          body: b.body ?? '',
          head: b.head,
          base: b.base,
          draft: !!b.draft,
          author: botLogin,
        });
        return { status: 201, body: pullJson(pull) };
      },
    ],
    [
      'PATCH',
      new RegExp(`^${repoPath}/pulls/(\\d+)$`),
      ([, , , n], req) => {
        const pull = pulls.find((p) => p.number === Number(n));
        if (!pull) return { status: 404, body: { message: 'Not Found' } };
        Object.assign(pull, req.body as Partial<FakePull>);
        return { status: 200, body: pullJson(pull) };
      },
    ],
    [
      'GET',
      new RegExp(`^${repoPath}/pulls/(\\d+)/comments$`),
      ([, , , n], req) => {
        const found = reviewNotes.filter((c) => c.pull === Number(n) && !c.state);
        if (req.query.direction === 'desc') found.reverse();
        return {
          status: 200,
          body: found.map((c) => ({
            id: c.id,
            body: c.body,
            path: c.path ?? 'README.md',
            line: c.outdated ? null : (c.line ?? 1),
            original_line: c.line ?? 1,
            position: c.outdated ? null : 1,
            created_at: c.at,
            author_association: c.association ?? 'COLLABORATOR',
            user: { login: c.author, type: c.author.endsWith('[bot]') ? 'Bot' : 'User' },
          })),
        };
      },
    ],
    [
      'GET',
      new RegExp(`^${repoPath}/pulls/(\\d+)/reviews$`),
      ([, , , n]) => ({
        status: 200,
        body: reviewNotes
          .filter((c) => c.pull === Number(n) && c.state)
          .map((c) => ({
            id: c.id,
            body: c.body,
            state: c.state,
            submitted_at: c.at,
            author_association: c.association ?? 'COLLABORATOR',
            user: { login: c.author, type: c.author.endsWith('[bot]') ? 'Bot' : 'User' },
          })),
      }),
    ],
    [
      'GET',
      new RegExp(`^${repoPath}/pulls/(\\d+)/commits$`),
      ([, , , n]) => {
        const pull = pulls.find((p) => p.number === Number(n));
        if (!pull) return { status: 404, body: { message: 'Not Found' } };
        const commits = repoReader?.commits(pull.base, pull.head) ?? [];
        return {
          status: 200,
          body: commits.map((c) => ({ sha: c.sha, commit: { message: c.message } })),
        };
      },
    ],
    [
      'GET',
      new RegExp(`^${repoPath}/branches/([^/]+)$`),
      ([, , , branch]) => {
        const contexts = requiredChecks.get(branch!);
        return {
          status: 200,
          body: {
            name: branch,
            commit: { sha: repoReader?.refSha(branch!) ?? '' },
            protected: contexts !== undefined,
            ...(contexts === undefined
              ? {}
              : {
                  protection: {
                    enabled: true,
                    required_status_checks: {
                      enforcement_level: 'non_admins',
                      contexts,
                      checks: contexts.map((context) => ({ context, app_id: null })),
                    },
                  },
                }),
          },
        };
      },
    ],
    // No rulesets: GitHub answers an empty list.
    ['GET', new RegExp(`^${repoPath}/rules/branches/([^/]+)$`), () => ({ status: 200, body: [] })],
    [
      'GET',
      new RegExp(`^${repoPath}/actions/jobs/(\\d+)/logs$`),
      ([, , , id]) => {
        const run = checkRuns.find((r) => r.id === Number(id));
        if (!run?.log) return { status: 404, body: { message: 'Not Found' } };
        // GitHub redirects to a short-lived download URL.
        return { status: 302, headers: { location: `${base}/_job-logs/${id}` } };
      },
    ],
    [
      'GET',
      /^\/_job-logs\/(\d+)$/,
      ([, id]) => {
        const run = checkRuns.find((r) => r.id === Number(id));
        return run?.log === undefined
          ? { status: 404, body: { message: 'Not Found' } }
          : { status: 200, text: run.log };
      },
    ],
    [
      'POST',
      new RegExp(`^${repoPath}/pulls/(\\d+)/requested_reviewers$`),
      (_, req) => ({
        status: 201,
        body: { requested_reviewers: (req.body as { reviewers?: string[] }).reviewers ?? [] },
      }),
    ],
    [
      'POST',
      new RegExp(`^${repoPath}/check-runs$`),
      (_, req) => {
        const body = (req.body ?? {}) as CheckRunBody;
        if (!body.name || !body.head_sha) {
          return { status: 422, body: { message: 'name and head_sha are required' } };
        }
        const run = addCheckRun({ name: body.name, head_sha: body.head_sha });
        const refused = applyCheckRun(run, body);
        if (refused) {
          checkRuns.splice(checkRuns.indexOf(run), 1);
          return refused;
        }
        return { status: 201, body: checkRunJson(run) };
      },
    ],
    [
      'PATCH',
      new RegExp(`^${repoPath}/check-runs/(\\d+)$`),
      ([, , , id], req) => {
        const run = checkRuns.find((r) => r.id === Number(id));
        if (!run) return { status: 404, body: { message: 'Not Found' } };
        if (run.app.id !== ownApp.id) {
          return { status: 403, body: { message: 'Invalid app_id `' + ownApp.id + '`' } };
        }
        return (
          applyCheckRun(run, (req.body ?? {}) as CheckRunBody) ?? {
            status: 200,
            body: checkRunJson(run),
          }
        );
      },
    ],
    [
      'GET',
      new RegExp(`^${repoPath}/check-runs/(\\d+)$`),
      ([, , , id]) => {
        const run = checkRuns.find((r) => r.id === Number(id));
        return run
          ? { status: 200, body: checkRunJson(run) }
          : { status: 404, body: { message: 'Not Found' } };
      },
    ],
    [
      'GET',
      new RegExp(`^${repoPath}/check-runs/(\\d+)/annotations$`),
      ([, , , id], req) => {
        const run = checkRuns.find((r) => r.id === Number(id));
        if (!run) return { status: 404, body: { message: 'Not Found' } };
        const perPage = Math.min(Math.max(Number(req.query.per_page ?? 30) || 30, 1), 100);
        const page = Math.max(Number(req.query.page ?? 1) || 1, 1);
        return {
          status: 200,
          body: run.annotations.slice((page - 1) * perPage, page * perPage),
        };
      },
    ],
    [
      'GET',
      new RegExp(`^${repoPath}/commits/([^/]+)/check-runs$`),
      ([, , , ref], req) => {
        let found = checkRuns.filter(
          (r) =>
            r.head_sha === ref &&
            (!req.query.check_name || r.name === req.query.check_name) &&
            (!req.query.app_id || r.app.id === Number(req.query.app_id)) &&
            (!req.query.status || r.status === req.query.status),
        );
        // GitHub's default filter: the most recent run of each name (per app).
        if ((req.query.filter ?? 'latest') === 'latest') {
          found = found.filter(
            (r) => !found.some((o) => o.name === r.name && o.app.id === r.app.id && o.id > r.id),
          );
        }
        return {
          status: 200,
          body: { total_count: found.length, check_runs: found.map(checkRunJson) },
        };
      },
    ],
  ];

  const hookDeliveries = createHookDeliveries(() => base);
  routes.push(...hookDeliveries.routes);

  const authorized = (req: RecordedRequest): boolean => {
    const auth = String(req.headers.authorization ?? '');
    // The log download a job-log redirect points at carries its own (here: no) credentials.
    if (req.path.startsWith('/_job-logs/')) return true;
    if (req.path.startsWith('/app')) {
      const jwt = /^bearer (.+)$/i.exec(auth)?.[1];
      return !!jwt && (!options.appPublicKey || verifyJwt(jwt, options.appPublicKey));
    }
    const token = /^token (.+)$/i.exec(auth)?.[1];
    return !!token && tokens.has(token);
  };

  const intercepts: {
    method: string;
    path: string | RegExp;
    when: 'before' | 'after';
    run: () => void | Promise<void>;
  }[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const record: RecordedRequest = {
        method: req.method ?? 'GET',
        path: decodeURIComponent(url.pathname.replace(/^\/api\/v3/, '')),
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: await readBody(req),
        at: performance.timeOrigin + performance.now(),
      };
      requests.push(record);
      const send = (reply: Reply): void => {
        const text = reply.text ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
        res
          .writeHead(reply.status, {
            'content-type':
              reply.text === undefined ? 'application/json; charset=utf-8' : 'text/plain',
            ...reply.headers,
          })
          .end(text);
      };
      if (await disrupt(disruptions, record, res)) return;
      const failure = failures.find(
        (f) => f.method === record.method && matches(f.path, record.path),
      );
      if (failure) {
        if (--failure.times <= 0) failures.splice(failures.indexOf(failure), 1);
        return send({ status: failure.status, body: { message: 'injected failure' } });
      }
      if (!authorized(record)) return send({ status: 401, body: { message: 'Bad credentials' } });
      const intercept = intercepts.find(
        (i) => i.method === record.method && matches(i.path, record.path),
      );
      if (intercept) intercepts.splice(intercepts.indexOf(intercept), 1);
      if (intercept?.when === 'before') {
        await intercept.run();
        res.socket?.destroy();
        return;
      }
      for (const [method, pattern, handle] of routes) {
        const m = method === record.method ? pattern.exec(record.path) : null;
        if (!m) continue;
        const reply = handle([...m], record);
        await intercept?.run();
        return send(reply);
      }
      send({
        status: 404,
        body: { message: `fake GitHub has no route for ${record.method} ${record.path}` },
      });
    })().catch((err: unknown) => res.writeHead(500).end(String(err)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const host = `127.0.0.1:${port}`;
  base = `http://${host}`;

  return {
    port,
    host,
    apiUrl: `${base}/api/v3`,
    env: { GHE_HOST: host, GHE_PROTOCOL: 'http' },
    botLogin,
    requests,
    comments,
    pulls,
    labels,
    tokens,
    calls: (method, path) => requests.filter((r) => r.method === method && matches(path, r.path)),
    failNext(method, path, status = 502, times = 1) {
      failures.push({ method, path, status, times });
    },
    disruptNext: (disruption) => void disruptions.push({ ...disruption }),
    interceptNext: (method, path, when, run) => void intercepts.push({ method, path, when, run }),
    setPermission: (login, role) => void roles.set(login, role),
    setFile(path, content) {
      if (content === undefined) files.delete(path);
      else files.set(path, content);
    },
    setIssue: (number, title, body) => void issues.set(number, { title, body }),
    addPull,
    addReviewNote(note) {
      const at = new Date(Date.UTC(2026, 0, 1) + reviewNotes.length * 60_000).toISOString();
      reviewNotes.push({ ...note, id: nextId++, at });
    },
    checkRuns,
    addCheckRun,
    setRepoReader: (reader) => void (repoReader = reader),
    setRequiredChecks: (branch, contexts) => void requiredChecks.set(branch, contexts),
    ...hookDeliveries.api,
    async close() {
      await hookDeliveries.close();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
