/**
 * Signed webhook deliveries for tests and benchmarks: real payloads from
 * `@octokit/webhooks-examples`, adapted (installation, repository, sender, issue, comment), signed
 * with the webhook secret (`x-hub-signature-256`, HMAC-SHA256) and POSTed to the app. Also the
 * app's RSA key pair, generated at run time so no key is ever committed.
 */
import { createHmac, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';

type Json = Record<string, unknown>;
interface Definition {
  name: string;
  examples: Json[];
}

const definitions = createRequire(import.meta.url)('@octokit/webhooks-examples') as Definition[];

/** `action` undefined: an event without actions (`push`). */
function example(
  event: string,
  action: string | undefined,
  predicate: (e: Json) => boolean = () => true,
): Json {
  const found = definitions
    .find((d) => d.name === event)
    ?.examples.find((e) => e.action === action && predicate(e));
  if (!found) throw new Error(`no ${event}.${action} example in @octokit/webhooks-examples`);
  return structuredClone(found);
}

export const WEBHOOK_PATH = '/api/github/webhooks';

export function generateAppKeyPair(): { privateKey: string; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKey: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    publicKey,
  };
}

export interface PayloadOptions {
  owner?: string;
  repo?: string;
  installationId?: number;
  sender?: string;
  senderType?: 'User' | 'Bot';
  issueNumber?: number;
  title?: string;
  body?: string;
  cloneUrl?: string;
  defaultBranch?: string;
}

function adapt(payload: Json, o: PayloadOptions): Json {
  const owner = o.owner ?? 'Codertocat';
  const name = o.repo ?? 'Hello-World';
  const repository = payload.repository as Json;
  Object.assign(repository, {
    name,
    full_name: `${owner}/${name}`,
    default_branch: o.defaultBranch ?? 'main',
    clone_url: o.cloneUrl ?? `https://github.com/${owner}/${name}.git`,
  });
  Object.assign(repository.owner as Json, { login: owner });
  payload.installation = { id: o.installationId ?? 4242, node_id: 'MDIzOkludGVncmF0aW9uNDI0Mg==' };
  Object.assign(payload.sender as Json, {
    login: o.sender ?? 'maintainer',
    type: o.senderType ?? 'User',
  });
  Object.assign(payload.issue as Json, {
    number: o.issueNumber ?? 1,
    ...(o.title === undefined ? {} : { title: o.title }),
    ...(o.body === undefined ? {} : { body: o.body }),
  });
  return payload;
}

/**
 * Each payload is a new event, as on GitHub: a comment gets its own id and a label event its own
 * `issue.updated_at` (the app tells triggers apart by them), unless the test fixes them.
 */
let events = 0;
const nextEvent = (): number => ++events;

/** `issues.labeled`, by default with the `autofix` label. */
export function labeledPayload(
  o: PayloadOptions & { label?: string; updatedAt?: string } = {},
): Json {
  const payload = adapt(example('issues', 'labeled'), o);
  Object.assign(payload.label as Json, { name: o.label ?? 'autofix' });
  (payload.issue as Json).updated_at =
    o.updatedAt ?? new Date(Date.UTC(2026, 0, 1) + nextEvent() * 1000).toISOString();
  return payload;
}

/** `issue_comment.created` on an issue, or on a pull request with `pullRequest`. */
export function commentPayload(
  o: PayloadOptions & { comment: string; commentId?: number; pullRequest?: boolean },
): Json {
  const payload = adapt(example('issue_comment', 'created'), o);
  Object.assign(payload.comment as Json, {
    body: o.comment,
    id: o.commentId ?? 100_000 + nextEvent(),
  });
  const issue = payload.issue as Json;
  if (o.pullRequest) {
    issue.pull_request = { url: `https://api.github.com/repos/x/y/pulls/${String(issue.number)}` };
  } else {
    delete issue.pull_request;
  }
  return payload;
}

export function sign(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export interface Delivery {
  status: number;
  text: string;
  deliveryId: string;
  ms: number;
}

/** POSTs a signed delivery to the app's webhook endpoint (`baseUrl` without the path). */
export async function deliver(
  baseUrl: string,
  options: {
    event: string;
    payload: Json;
    secret: string;
    deliveryId?: string;
    /** Overrides the signature (bad-signature tests). */
    signature?: string;
  },
): Promise<Delivery> {
  const body = JSON.stringify(options.payload);
  const deliveryId = options.deliveryId ?? randomUUID();
  const started = performance.now();
  const res = await fetch(`${baseUrl}${WEBHOOK_PATH}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': options.event,
      'x-github-delivery': deliveryId,
      'x-hub-signature-256': options.signature ?? sign(body, options.secret),
    },
    body,
  });
  const text = await res.text();
  return { status: res.status, text, deliveryId, ms: performance.now() - started };
}

export type CiEventName = 'check_suite' | 'check_run' | 'workflow_run';

/**
 * `check_suite`, `check_run` or `workflow_run` completed on a pull request's head: the example
 * payload with the repository, installation, head and the PR it names set (`pulls: []` for a
 * push without a PR). `id` tells events apart (a check run's, a suite's or a workflow run's id).
 */
export function ciCompletedPayload(
  event: CiEventName,
  o: Omit<PayloadOptions, 'issueNumber' | 'title' | 'body'> & {
    headSha: string;
    pulls: { number: number; headRef: string; baseRef?: string; baseSha?: string }[];
    conclusion?: string;
    id?: number;
    name?: string;
  },
): Json {
  const payload = example(event, 'completed');
  payload.issue = {};
  adapt(payload, o);
  delete payload.issue;
  const object = payload[event] as Json;
  Object.assign(object, {
    id: o.id ?? 500_000 + nextEvent(),
    head_sha: o.headSha,
    conclusion: o.conclusion ?? 'failure',
    status: 'completed',
    pull_requests: o.pulls.map((p) => ({
      number: p.number,
      head: { ref: p.headRef, sha: o.headSha },
      base: { ref: p.baseRef ?? 'main', sha: p.baseSha ?? '0'.repeat(40) },
    })),
    ...(o.name ? { name: o.name } : {}),
  });
  return payload;
}

/** `check_run.rerequested`: "Re-run" on a check run of `app` on a PR's head. */
export function rerequestedPayload(
  o: Omit<PayloadOptions, 'issueNumber' | 'title' | 'body'> & {
    checkRunId: number;
    headSha: string;
    pull: { number: number; headRef: string };
    app?: { id: number; slug: string };
    name?: string;
  },
): Json {
  const payload = example('check_run', 'rerequested');
  payload.issue = {};
  adapt(payload, o);
  delete payload.issue;
  Object.assign(payload.check_run as Json, {
    id: o.checkRunId,
    name: o.name ?? 'Autofix verification',
    head_sha: o.headSha,
    app: {
      ...((payload.check_run as Json).app as Json),
      ...(o.app ?? { id: 1, slug: 'autofix-test' }),
    },
    pull_requests: [
      {
        number: o.pull.number,
        head: { ref: o.pull.headRef, sha: o.headSha },
        base: { ref: 'main' },
      },
    ],
  });
  return payload;
}

/** `installation` (`deleted`, `suspend`, `unsuspend`, …) for installation `installationId`. */
export function installationPayload(action: string, installationId = 4242): Json {
  const payload = example('installation', action);
  Object.assign(payload.installation as Json, { id: installationId });
  return payload;
}

/** `installation_repositories.removed`: `repositories` (`owner/name`) left installation `installationId`. */
export function repositoriesRemovedPayload(repositories: string[], installationId = 4242): Json {
  const payload = example('installation_repositories', 'removed');
  Object.assign(payload.installation as Json, { id: installationId });
  payload.repositories_removed = repositories.map((fullName, i) => ({
    id: 9000 + i,
    node_id: `R_${i}`,
    name: fullName.split('/')[1],
    full_name: fullName,
    private: false,
  }));
  return payload;
}

/**
 * `pull_request.closed`: merged (with `mergeSha`) or closed unmerged, by `author` (`Bot` when it
 * ends in `[bot]`), from `headRef` of the repository itself or of the fork `headRepo`. Each gets
 * its own `closed_at` (about now) unless the test fixes it.
 */
export function pullClosedPayload(
  o: Omit<PayloadOptions, 'issueNumber'> & {
    number: number;
    author: string;
    headRef: string;
    headRepo?: string;
    merged?: boolean;
    mergeSha?: string;
    closedAt?: string;
  },
): Json {
  const payload = example('pull_request', 'closed');
  payload.issue = {};
  adapt(payload, o);
  delete payload.issue;
  const repository = payload.repository as Json;
  const pull = payload.pull_request as Json;
  // Now (the status page counts the last 30 days), a second apart from any other event.
  const closedAt =
    o.closedAt ?? new Date(Math.floor(Date.now() / 1000 + nextEvent()) * 1000).toISOString();
  const headRepo = structuredClone(repository);
  if (o.headRepo) Object.assign(headRepo, { full_name: o.headRepo, id: 990_000 + nextEvent() });
  payload.number = o.number;
  Object.assign(pull, {
    number: o.number,
    title: o.title ?? `Pull request ${o.number}`,
    body: o.body ?? '',
    state: 'closed',
    merged: o.merged ?? false,
    merged_at: o.merged ? closedAt : null,
    closed_at: closedAt,
    merge_commit_sha: o.merged ? (o.mergeSha ?? 'f'.repeat(40)) : null,
    user: {
      ...(pull.user as Json),
      login: o.author,
      type: o.author.endsWith('[bot]') ? 'Bot' : 'User',
    },
    head: { ...(pull.head as Json), ref: o.headRef, repo: headRepo },
    base: { ...(pull.base as Json), ref: o.defaultBranch ?? 'main', repo: repository },
  });
  return payload;
}

/** `push` of commits with these messages to `ref` (default: the default branch). */
export function pushPayload(
  o: Omit<PayloadOptions, 'issueNumber' | 'title' | 'body'> & {
    messages: string[];
    ref?: string;
  },
): Json {
  const payload = example('push', undefined, (e) => (e.commits as unknown[]).length > 0);
  payload.issue = {};
  adapt(payload, o);
  delete payload.issue;
  const template = (payload.commits as Json[])[0]!;
  const commits = o.messages.map((message, i) => ({
    ...template,
    id: (nextEvent() * 1000 + i).toString(16).padStart(40, '0'),
    message,
  }));
  Object.assign(payload, {
    ref: o.ref ?? `refs/heads/${o.defaultBranch ?? 'main'}`,
    after: commits.at(-1)?.id ?? '0'.repeat(40),
    commits,
    head_commit: commits.at(-1) ?? null,
  });
  return payload;
}
