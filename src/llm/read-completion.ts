/** What one answered request says: the text, the tool calls, the finish and the token counts. */
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { countMessageTokens, countTokens } from './count-tokens.js';
import { normalizeToolCalls } from './normalize-tool-calls.js';
import { truncationOf } from './truncation-of.js';
import type { ChatRequest, ToolCall } from './types.js';

/** An answer as received, before usage is recorded and the text normalized. */
export interface Completion {
  text: string;
  toolCalls: ToolCall[];
  toolCallQuirks: string[];
  refusal: string | null;
  model: string;
  finishReason: string | null;
  truncated: string | null;
  raw: unknown;
  promptTokens: number;
  completionTokens: number;
}

/**
 * The answer of `response`; undefined when it holds no choice. Token counts the server left out
 * are counted locally (o200k) from the prompt as sent and the answer's text.
 */
export function readCompletion(
  response: ChatCompletion,
  request: ChatRequest,
  messages: ChatRequest['messages'],
  index: number,
): Completion | undefined {
  // Typed as always there, but a server may send a body of `null` or one without `choices`.
  const choice = (response as ChatCompletion | null)?.choices?.[0];
  if (!choice) return undefined;
  const calls = normalizeToolCalls(
    choice.message ?? {},
    new Set((request.tools ?? []).map((t) => t.name)),
    String(index),
  );
  const text = calls.content;
  return {
    text,
    toolCalls: calls.calls,
    toolCallQuirks: calls.quirks,
    refusal: choice.message?.refusal ?? null,
    model: response.model ?? request.model,
    finishReason: choice.finish_reason ?? null,
    truncated: truncationOf(response, request.maxTokens),
    raw: response,
    promptTokens: response.usage?.prompt_tokens ?? countMessageTokens(messages),
    completionTokens: response.usage?.completion_tokens ?? countTokens(text),
  };
}
