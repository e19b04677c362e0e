/**
 * A call answered from the run's call journal (`call-journal.ts`): nothing sent, nothing charged
 * (neither the usage tracker nor the spend guard), a transcript entry marked `replayed` without
 * usage (its tokens were counted the first time), and the answer as the first call gave it.
 */
import { transcriptHead, type CallEnd, type ChatCall } from './chat-call.js';
import type { JournalAnswer } from './call-journal.js';
import { resultOf } from './settle-answer.js';
import type { ChatResult } from './types.js';
import type { UsageTracker } from './usage-tracker.js';

export async function replayAnswer(
  call: ChatCall,
  got: JournalAnswer,
  end: CallEnd & { usage: UsageTracker },
): Promise<ChatResult> {
  const { cost, priced } = end.usage.costOf(
    call.request.model,
    got.promptTokens,
    got.completionTokens,
  );
  const durationMs = end.now() - call.started;
  await end.onTranscript?.({
    ...transcriptHead(call),
    responseText: got.text,
    ...(got.toolCalls.length > 0 ? { toolCalls: got.toolCalls } : {}),
    response: got.raw,
    usage: undefined,
    attempts: 0,
    durationMs,
    replayed: true,
  });
  const usage = {
    promptTokens: got.promptTokens,
    completionTokens: got.completionTokens,
    totalTokens: got.promptTokens + got.completionTokens,
    cost,
    priced,
  };
  return resultOf(call, got, { usage, attempts: 0, durationMs, replayed: true });
}
