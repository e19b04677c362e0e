/**
 * The end of a call that got an answer: usage recorded, the answer charged (journal, spend guard),
 * the transcript written (raw reply), then the budget error if the call overdrew the token
 * budget, else the answer normalized (`normalize-answer.ts`).
 */
import { transcriptHead, type CallEnd, type ChatCall } from './chat-call.js';
import { normalizeAnswer } from './normalize-answer.js';
import type { Completion } from './read-completion.js';
import { recordCallUsage } from './record-call-usage.js';
import type { CallUsage, ChatResult } from './types.js';
import type { UsageTracker } from './usage-tracker.js';

export async function settleAnswer(
  call: ChatCall,
  attempts: number,
  got: Completion,
  end: CallEnd & {
    usage: UsageTracker;
    /** Told once the call's usage is known, before anything can throw: it was paid for. */
    charge?: (callUsage: CallUsage) => Promise<void>;
  },
): Promise<ChatResult> {
  const { callUsage, budgetError } = recordCallUsage(end.usage, call, got);
  await end.charge?.(callUsage);
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
  return resultOf(call, got, { usage: callUsage, attempts, durationMs });
}

/** The answer as a stage reads it: normalized text, the raw reply kept. */
export function resultOf(
  call: ChatCall,
  got: Completion,
  how: Pick<ChatResult, 'usage' | 'attempts' | 'durationMs' | 'replayed'>,
): ChatResult {
  const answer = normalizeAnswer(got.text, { refusal: got.refusal });
  return {
    text: answer.text,
    refusal: answer.refusal,
    model: got.model,
    finishReason: got.finishReason,
    truncated: got.truncated,
    toolCalls: got.toolCalls,
    ...(got.toolCallQuirks.length > 0 ? { toolCallQuirks: got.toolCallQuirks } : {}),
    usage: how.usage,
    raw: got.raw,
    attempts: how.attempts,
    durationMs: how.durationMs,
    index: call.index,
    ...(how.replayed ? { replayed: true } : {}),
  };
}
