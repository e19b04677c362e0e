/**
 * One HTTP attempt of a call: the answer, or why it failed (`classify-llm-error.ts`). A response
 * without choices is a retryable failure.
 */
import type OpenAI from 'openai';
import { APIUserAbortError, OpenAIError } from 'openai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { ChatCall } from './chat-call.js';
import { chatParams } from './chat-params.js';
import { classifyLlmError } from './classify-llm-error.js';
import { readCompletion, type Completion } from './read-completion.js';
import type { AttemptOutcome } from './with-retries.js';

export async function sendOnce(
  sdk: OpenAI,
  call: ChatCall,
  timeoutMs: number,
  now: () => number,
): Promise<AttemptOutcome<Completion>> {
  const { request } = call;
  let response: ChatCompletion;
  try {
    response = await sdk.chat.completions.create(chatParams(request, call.messages), {
      ...(request.signal ? { signal: request.signal } : {}),
      maxRetries: 0,
    });
  } catch (err) {
    // Cancellation and our own bugs are not outages: let them through unchanged.
    if (err instanceof APIUserAbortError || request.signal?.aborted) throw err;
    if (!(err instanceof OpenAIError)) throw err;
    return { failure: classifyLlmError(err, now(), timeoutMs) };
  }
  const got = readCompletion(response, request, call.messages, call.index);
  return got
    ? { ok: got }
    : { failure: { label: 'a response without choices', status: 200, retryable: true } };
}
