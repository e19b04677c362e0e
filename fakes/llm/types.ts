/**
 * What the scripted LLM server records and answers: a chat request as it arrived, the replies a
 * test or the demo scripts, and the handle `startScriptedLlmServer` gives back.
 */
import type { IncomingHttpHeaders } from 'node:http';

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
