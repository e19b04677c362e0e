/**
 * The fake's HTTP side (node:http on 127.0.0.1:0, loopback only): records each request, lets
 * the test's faults act on it, checks its credentials and answers with the first route that
 * matches it (404 naming the request when none does).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Faults } from './faults.js';
import type { Reply, Route } from './route.js';
import type { RecordedRequest } from './types.js';

export interface FakeServerParts {
  routes: Route[];
  faults: Faults;
  authorized(req: RecordedRequest): boolean;
  /** Where each request is recorded as it arrives. */
  requests: RecordedRequest[];
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

async function recordOf(req: IncomingMessage): Promise<RecordedRequest> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  return {
    method: req.method ?? 'GET',
    path: decodeURIComponent(url.pathname.replace(/^\/api\/v3/, '')),
    query: Object.fromEntries(url.searchParams),
    headers: req.headers,
    body: await readBody(req),
    at: performance.timeOrigin + performance.now(),
  };
}

function send(res: ServerResponse, reply: Reply): void {
  const text = reply.text ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
  const type = reply.text === undefined ? 'application/json; charset=utf-8' : 'text/plain';
  res.writeHead(reply.status, { 'content-type': type, ...reply.headers }).end(text);
}

function dispatch(routes: Route[], record: RecordedRequest): Reply {
  for (const { method, pattern, handle } of routes) {
    const m = method === record.method ? pattern.exec(record.path) : null;
    if (m) return handle([...m], record);
  }
  return {
    status: 404,
    body: { message: `fake GitHub has no route for ${record.method} ${record.path}` },
  };
}

async function answer(parts: FakeServerParts, req: IncomingMessage, res: ServerResponse) {
  const record = await recordOf(req);
  parts.requests.push(record);
  if (await parts.faults.disrupt(record, res)) return;
  const failure = parts.faults.failure(record);
  if (failure) return send(res, failure);
  if (!parts.authorized(record)) {
    return send(res, { status: 401, body: { message: 'Bad credentials' } });
  }
  const intercept = parts.faults.intercept(record);
  if (intercept?.when === 'before') {
    await intercept.run();
    res.socket?.destroy();
    return;
  }
  const reply = dispatch(parts.routes, record);
  await intercept?.run();
  send(res, reply);
}

export async function listenFake(
  parts: FakeServerParts,
): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    answer(parts, req, res).catch((err: unknown) => res.writeHead(500).end(String(err)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}
