/**
 * A scripted OpenAI-compatible server: real HTTP on 127.0.0.1 only, so the real `openai` SDK (or
 * anything else speaking Chat Completions) runs unmodified against scripted answers. `autofix
 * demo` runs the pipeline against it (`respond`: an answer chosen by the agent that asks), and
 * the tests use it through test/helpers/fake-llm-server.ts (`enqueue`: answers in order).
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
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatCompletionBody {
  model: string;
  messages: {
    role: string;
    content: string;
    tool_calls?: { id: string; function: { name: string; arguments: string } }[];
    tool_call_id?: string;
  }[];
  temperature?: number;
  max_tokens?: number;
  response_format?: { type: string };
  stream?: boolean;
  [key: string]: unknown;
}

export interface RecordedRequest {
  /** 1-based across all endpoints. */
  n: number;
  method: string;
  path: string;
  /** Lower-cased header names, as node reports them. */
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** Parsed JSON for chat requests; undefined otherwise. */
  body: ChatCompletionBody;
  receivedAt: number;
  /** When the answer (or the dropped connection) left, epoch ms: the LLM's own time is the difference. */
  respondedAt?: number;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** A successful completion. Usage defaults to a character-based estimate. */
export interface ContentReply {
  content: string;
  usage?: Partial<Usage>;
  /** Omit the `usage` object entirely (some local servers do). */
  noUsage?: boolean;
  model?: string;
  finishReason?: string;
  delayMs?: number;
  /** Tool calls, sent as OpenAI does (`id`, `type`, `function` with string arguments). */
  toolCalls?: { name: string; arguments: unknown; id?: string }[];
  /** Fields merged into the message as sent: a server's own shapes (tool calls without ids…). */
  message?: Record<string, unknown>;
}

/** An HTTP error (or any status) with optional headers and JSON body. */
export interface StatusReply {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  delayMs?: number;
}

/** Closes the socket without answering: the client sees a connection error. */
export interface DropReply {
  drop: true;
  delayMs?: number;
}

export type StaticReply = string | ContentReply | StatusReply | DropReply;
export type ScriptedReply =
  StaticReply | ((request: RecordedRequest) => StaticReply | Promise<StaticReply>);

export interface ScriptedLlmServerOptions {
  /** Initial script; more can be added with `enqueue`. */
  replies?: ScriptedReply[];
  /**
   * Answers a request once the queue is empty (e.g. by the agent named in the system prompt);
   * undefined = no answer (500).
   */
  respond?: (
    request: RecordedRequest,
  ) => StaticReply | undefined | Promise<StaticReply | undefined>;
  /** When set, requests without `Authorization: Bearer <apiKey>` get 401. */
  apiKey?: string;
  /** Listed by `GET /v1/models`. */
  models?: string[];
}

export interface ScriptedLlmServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `http://127.0.0.1:<port>/v1`: what OPENAI_BASE_URL / `baseUrl` should be. */
  baseUrl: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Only the chat-completion requests. */
  chatRequests(): RecordedRequest[];
  enqueue(...replies: ScriptedReply[]): void;
  /** Scripted replies not consumed yet. */
  pending(): number;
  close(): Promise<void>;
}

const estimate = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

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

function openAiCall(call: { name: string; arguments: unknown; id?: string }, i: number): unknown {
  return {
    id: call.id ?? `call_scripted_${i + 1}`,
    type: 'function',
    function: {
      name: call.name,
      arguments:
        typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    },
  };
}

function completion(reply: ContentReply, request: RecordedRequest): unknown {
  const prompt = estimate(request.body.messages.map((m) => m.content).join('\n'));
  const promptTokens = reply.usage?.prompt_tokens ?? prompt;
  const completionTokens = reply.usage?.completion_tokens ?? estimate(reply.content);
  return {
    id: `chatcmpl-scripted-${request.n}`,
    object: 'chat.completion',
    created: Math.floor(request.receivedAt / 1000),
    model: reply.model ?? request.body.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.content,
          refusal: null,
          ...(reply.toolCalls ? { tool_calls: reply.toolCalls.map(openAiCall) } : {}),
          ...reply.message,
        },
        finish_reason: reply.finishReason ?? (reply.toolCalls ? 'tool_calls' : 'stop'),
        logprobs: null,
      },
    ],
    ...(reply.noUsage
      ? {}
      : {
          usage: {
            prompt_tokens: promptTokens,
            completion_tokens: completionTokens,
            total_tokens: reply.usage?.total_tokens ?? promptTokens + completionTokens,
          },
        }),
  };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function startScriptedLlmServer(
  options: ScriptedLlmServerOptions = {},
): Promise<ScriptedLlmServer> {
  const queue: ScriptedReply[] = [...(options.replies ?? [])];
  const requests: RecordedRequest[] = [];

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        const path = (req.url ?? '/').split('?')[0] ?? '/';
        let body: ChatCompletionBody = { model: '', messages: [] };
        try {
          if (rawBody) body = JSON.parse(rawBody) as ChatCompletionBody;
        } catch {
          // recorded as is; the handler below answers 400
        }
        const record: RecordedRequest = {
          n: requests.length + 1,
          method: req.method ?? 'GET',
          path,
          headers: req.headers,
          rawBody,
          body,
          receivedAt: Date.now(),
        };
        requests.push(record);
        res.on('close', () => (record.respondedAt = Date.now()));

        if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
          return sendJson(res, 401, {
            error: {
              message: 'Incorrect API key provided',
              type: 'invalid_request_error',
              code: 'invalid_api_key',
            },
          });
        }
        if (record.method === 'GET' && path === '/v1/models') {
          const models = options.models ?? ['fake-model'];
          return sendJson(res, 200, {
            object: 'list',
            data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' })),
          });
        }
        if (record.method !== 'POST' || path !== '/v1/chat/completions') {
          return sendJson(res, 404, {
            error: { message: `scripted-llm-server: no route ${record.method} ${path}` },
          });
        }
        if (!Array.isArray(body.messages) || body.stream) {
          return sendJson(res, 400, {
            error: {
              message: 'scripted-llm-server: expected a JSON chat request without streaming',
            },
          });
        }
        const next = queue.shift();
        const reply =
          next === undefined
            ? await options.respond?.(record)
            : typeof next === 'function'
              ? await next(record)
              : next;
        if (reply === undefined) {
          return sendJson(res, 500, {
            error: {
              message: `scripted-llm-server: no scripted reply left for request #${record.n}`,
            },
          });
        }
        const normalized: ContentReply | StatusReply | DropReply =
          typeof reply === 'string' ? { content: reply } : reply;
        if (normalized.delayMs) await sleep(normalized.delayMs);
        if ('drop' in normalized) {
          req.socket.destroy();
          return;
        }
        if ('status' in normalized) {
          return sendJson(
            res,
            normalized.status,
            normalized.body ?? {
              error: { message: `scripted status ${normalized.status}`, type: 'server_error' },
            },
            normalized.headers,
          );
        }
        sendJson(res, 200, completion(normalized, record));
      })().catch((err: unknown) => {
        if (!res.headersSent)
          sendJson(res, 500, { error: { message: `scripted-llm-server: ${String(err)}` } });
      });
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
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    pending: () => queue.length,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
