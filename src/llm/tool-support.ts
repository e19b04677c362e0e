/**
 * Whether an endpoint's model answers tool calls (`code_strategy: auto`): asked once per endpoint
 * and model with a one-line request that can only be answered by calling a tool, and remembered
 * for the life of the process. A server that rejects `tools` outright (400) does not support
 * them; an outage is not an answer and is thrown.
 */
import { isAutofixError } from '../errors.js';
import type { LlmClient } from './create-llm-client.js';

const known = new Map<string, boolean>();

export async function supportsTools(
  llm: LlmClient,
  model: string,
  signal?: AbortSignal,
): Promise<boolean> {
  const key = `${llm.endpoint} ${model}`;
  const seen = known.get(key);
  if (seen !== undefined) return seen;
  let answer: boolean;
  try {
    const reply = await llm.chat({
      model,
      stage: 'code',
      maxTokens: 64,
      messages: [
        { role: 'system', content: 'Answer only by calling the tool `ready`.' },
        { role: 'user', content: 'Are you ready?' },
      ],
      tools: [
        {
          name: 'ready',
          description: 'Say that you are ready.',
          parameters: { type: 'object', properties: {}, additionalProperties: false },
        },
      ],
      toolChoice: 'required',
      ...(signal ? { signal } : {}),
    });
    answer = reply.toolCalls.some((c) => c.name === 'ready');
  } catch (err) {
    const status = isAutofixError(err)
      ? (err.details as { status?: unknown } | undefined)?.status
      : undefined;
    if (status !== 400 && status !== 422) throw err;
    answer = false;
  }
  known.set(key, answer);
  return answer;
}

/** Forget what was learned (tests). */
export function forgetToolSupport(): void {
  known.clear();
}
