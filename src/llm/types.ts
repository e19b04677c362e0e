/** The shapes the LLM layer exchanges with stages: messages in, text + usage out. */
import type { ToolCall } from './normalize-tool-calls.js';

export type { ToolCall };

/**
 * One message of a conversation. An assistant message may carry the tool calls the model made;
 * each call is answered by a `tool` message with its id.
 */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; content: string; toolCallId: string; name: string };

/** A tool the model may call: JSON Schema parameters (`src/tools/registry.ts` makes them). */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ChatRequest {
  /** Model name as the server knows it (model per stage comes from the repo config). */
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  /** Upper bound on completion tokens; also counted when checking the budget. */
  maxTokens?: number;
  /** Ask the server for `response_format: json_object` (not every local server supports it). */
  jsonMode?: boolean;
  /** Tools the model may call (`src/tools/registry.ts`); the answer's `toolCalls` holds its calls. */
  tools?: ToolSpec[];
  /** `auto` (the default when tools are given), `required`, or `none`. */
  toolChoice?: 'auto' | 'required' | 'none';
  /** Stage name recorded in usage and transcripts (`triage`, `plan`, `code`, …). */
  stage?: string;
  /** Cancels the call (and any wait between retries). */
  signal?: AbortSignal;
}

export interface CallUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** USD; 0 when the model is not in the price table. */
  cost: number;
  /** False when the model's price is unknown (local models, new names). */
  priced: boolean;
}

export interface ChatResult {
  /** The answer with provider quirks removed (`normalize-answer.ts`); transcripts keep the raw one. */
  text: string;
  /** Why the model declined to answer, when it did (then `text` holds no usable answer). */
  refusal: string | null;
  /** Model the server says answered (may differ from the requested alias). */
  model: string;
  finishReason: string | null;
  /**
   * Why the answer is known to be cut off at the output limit (`finish_reason "length"` or a
   * server's own way of saying it, `truncation-of.ts`); null when it ended by itself. A cut
   * answer must never be written as if it were complete.
   */
  truncated: string | null;
  /** The calls the model made (none without `tools`), whatever shape the server sent them in. */
  toolCalls: ToolCall[];
  /** Server quirks met while reading the calls (`missing-id`, `calls-in-content:tagged`…). */
  toolCallQuirks?: string[];
  usage: CallUsage;
  /** The response body as received, for `query-N-response.json`. */
  raw: unknown;
  /** HTTP attempts this call took (1 = no retry; 0 = answered from the run's call journal). */
  attempts: number;
  durationMs: number;
  /** 1-based number of this call in the client's life: the N of `query-N.txt`. */
  index: number;
  /**
   * The answer came from the run's call journal (`call-journal.ts`): the same call was answered
   * before (a retried or resumed stage) and nothing was sent or charged. `usage` is the first
   * answer's.
   */
  replayed?: boolean;
}

/** One finished (or finally failed) call, handed to the transcript hook. */
export interface TranscriptEntry {
  index: number;
  stage: string | undefined;
  model: string;
  request: { messages: ChatMessage[]; temperature?: number; maxTokens?: number };
  /** Response text; empty when the call failed. */
  responseText: string;
  /** The tool calls of the answer, normalised. */
  toolCalls?: ToolCall[];
  /** Raw response body; undefined when the call failed. */
  response: unknown;
  usage: CallUsage | undefined;
  attempts: number;
  durationMs: number;
  /** Error message (already redacted) when the call failed. */
  error?: string;
  /**
   * Answered from the run's call journal without a request: `usage` is then undefined (the
   * tokens were counted when the answer was first received).
   */
  replayed?: boolean;
}

export type TranscriptHook = (entry: TranscriptEntry) => void | Promise<void>;
