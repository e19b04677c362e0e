/**
 * A scripted OpenAI-compatible server: real HTTP on 127.0.0.1 only, so the real `openai` SDK (or
 * anything else speaking Chat Completions) runs unmodified against scripted answers. `autofix
 * demo` runs the pipeline against it (`respond`: an answer chosen by the agent that asks), and
 * the tests use it through test/helpers/fake-llm-server.ts (`enqueue`: answers in order).
 * Imported through `fakes/llm/index.ts`.
 *
 *   const llm = await startScriptedLlmServer();
 *   llm.enqueue('{"risk": "LOW", …}');                          // 200 with this content
 *   llm.enqueue({ status: 429, headers: { 'retry-after': '0.05' } });
 *   llm.enqueue((req) => `echo: ${req.body.messages.at(-1)?.content}`);
 *   const client = createLlmClient({ baseUrl: llm.baseUrl, apiKey: 'sk-test-…' });
 *   …
 *   expect(llm.chatRequests()[1]?.body.messages).toEqual(…);
 *   await llm.close();
 *
 * Endpoints: `POST /v1/chat/completions` (one scripted reply per request: the queue in order,
 * then `respond`) and `GET /v1/models`. Every request is recorded, headers and body. When neither
 * has an answer the server answers 500 with a message naming the request, so a missing reply
 * fails loudly.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fixedAnswer, scriptedAnswer, type Answer } from './answer.js';
import type {
  ChatCompletionBody,
  RecordedRequest,
  ScriptedLlmServer,
  ScriptedLlmServerOptions,
  ScriptedReply,
  StaticReply,
} from './types.js';

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** The request as it arrived, but its number (given once it is recorded). */
async function recordOf(req: IncomingMessage): Promise<Omit<RecordedRequest, 'n'>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const rawBody = Buffer.concat(chunks).toString('utf8');
  let body: ChatCompletionBody = { model: '', messages: [] };
  try {
    if (rawBody) body = JSON.parse(rawBody) as ChatCompletionBody;
  } catch {
    // recorded as is; the answer is 400
  }
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const method = req.method ?? 'GET';
  return { method, path, headers: req.headers, rawBody, body, receivedAt: Date.now() };
}

/** The next scripted reply: the queue in order, then `respond`. */
async function nextReply(
  queue: ScriptedReply[],
  options: ScriptedLlmServerOptions,
  record: RecordedRequest,
): Promise<StaticReply | undefined> {
  const next = queue.shift();
  if (next === undefined) return options.respond?.(record);
  return typeof next === 'function' ? next(record) : next;
}

function send(req: IncomingMessage, res: ServerResponse, answer: Answer): void {
  if ('drop' in answer) req.socket.destroy();
  else sendJson(res, answer.status, answer.body, answer.headers);
}

export async function startScriptedLlmServer(
  options: ScriptedLlmServerOptions = {},
): Promise<ScriptedLlmServer> {
  const queue: ScriptedReply[] = [...(options.replies ?? [])];
  const requests: RecordedRequest[] = [];

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const arrived = await recordOf(req);
    const record: RecordedRequest = { n: requests.length + 1, ...arrived };
    requests.push(record);
    res.on('close', () => (record.respondedAt = Date.now()));
    const fixed = fixedAnswer(record, options);
    if (fixed) return send(req, res, fixed);
    send(req, res, await scriptedAnswer(await nextReply(queue, options, record), record));
  };
  const server = createServer((req, res) => {
    answer(req, res).catch((err: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, { error: { message: `scripted-llm-server: ${String(err)}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    baseUrl: `${url}/v1`,
    requests,
    chatRequests: () => requests.filter((r) => r.path === '/v1/chat/completions'),
    enqueue: (...replies) => void queue.push(...replies),
    pending: () => queue.length,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
