/** The Chat Completions request body of one call, and the part of it a transcript records. */
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { wireMessages, wireTools } from './wire-messages.js';
import type { ChatRequest, TranscriptEntry } from './types.js';

/** The body sent for `request`, with `messages` (already masked) in place of its own. */
export function chatParams(
  request: ChatRequest,
  messages: ChatRequest['messages'],
): ChatCompletionCreateParamsNonStreaming {
  return {
    model: request.model,
    messages: wireMessages(messages),
    ...(request.tools && request.tools.length > 0
      ? {
          tools: wireTools(request.tools),
          ...(request.toolChoice ? { tool_choice: request.toolChoice } : {}),
        }
      : {}),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
    ...(request.jsonMode ? { response_format: { type: 'json_object' as const } } : {}),
  };
}

/** What a transcript keeps of the request: the masked messages and the sampling limits. */
export function transcriptRequestOf(
  request: ChatRequest,
  messages: ChatRequest['messages'],
): TranscriptEntry['request'] {
  return {
    messages,
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.maxTokens === undefined ? {} : { maxTokens: request.maxTokens }),
  };
}
