/** A scripted content reply as an OpenAI chat completion (`chat.completion`), usage estimated when not given. */
import type { ContentReply, RecordedRequest } from './types.js';

/** About four characters a token: enough for budgets and reports in tests. */
const estimate = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

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

function usageOf(reply: ContentReply, request: RecordedRequest) {
  const prompt = estimate(request.body.messages.map((m) => m.content).join('\n'));
  const promptTokens = reply.usage?.prompt_tokens ?? prompt;
  const completionTokens = reply.usage?.completion_tokens ?? estimate(reply.content);
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: reply.usage?.total_tokens ?? promptTokens + completionTokens,
  };
}

export function completion(reply: ContentReply, request: RecordedRequest): unknown {
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
    ...(reply.noUsage ? {} : { usage: usageOf(reply, request) }),
  };
}
