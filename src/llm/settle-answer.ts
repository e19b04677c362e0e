/**
 * The end of a call that got an answer: usage recorded, the transcript written (raw reply), then
 * the budget error if the call overdrew it, else the answer normalized (`normalize-answer.ts`).
 */
import { transcriptHead, type CallEnd, type ChatCall } from './chat-call.js';
import { normalizeAnswer } from './normalize-answer.js';
import type { Completion } from './read-completion.js';
import { recordCallUsage } from './record-call-usage.js';
import type { ChatResult } from './types.js';
import type { UsageTracker } from './usage-tracker.js';

export async function settleAnswer(
  call: ChatCall,
  attempts: number,
  got: Completion,
  end: CallEnd & { usage: UsageTracker },
): Promise<ChatResult> {
  const { callUsage, budgetError } = recordCallUsage(end.usage, call, got);
  const durationMs = end.now() - call.started;
  await end.onTranscript?.({
    ...transcriptHead(call),
    responseText: got.text,
    ...(got.toolCalls.length > 0 ? { toolCalls: got.toolCalls } : {}),
    response: got.raw,
    usage: callUsage,
    attempts,
    durationMs,
  });
  if (budgetError !== undefined) throw budgetError;
  const answer = normalizeAnswer(got.text, { refusal: got.refusal });
  return {
    text: answer.text,
    refusal: answer.refusal,
    model: got.model,
    finishReason: got.finishReason,
    truncated: got.truncated,
    toolCalls: got.toolCalls,
    ...(got.toolCallQuirks.length > 0 ? { toolCallQuirks: got.toolCallQuirks } : {}),
    usage: callUsage,
    raw: got.raw,
    attempts,
    durationMs,
    index: call.index,
  };
}
