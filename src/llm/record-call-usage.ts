/**
 * A call's tokens and cost, recorded in the run's usage tracker. A call that overdraws the budget
 * is still recorded (its tokens were spent) and its transcript still written; the budget error
 * comes back to be thrown after that.
 */
import type { ChatCall } from './chat-call.js';
import type { Completion } from './read-completion.js';
import type { CallUsage } from './types.js';
import type { UsageRecord, UsageTracker } from './usage-tracker.js';

export function recordCallUsage(
  usage: UsageTracker,
  call: ChatCall,
  got: Pick<Completion, 'promptTokens' | 'completionTokens'>,
): { callUsage: CallUsage; budgetError: Error | undefined } {
  const { request } = call;
  let budgetError: Error | undefined;
  let record: UsageRecord;
  try {
    record = usage.record({
      index: call.index,
      ...(request.stage === undefined ? {} : { stage: request.stage }),
      model: request.model,
      promptTokens: got.promptTokens,
      completionTokens: got.completionTokens,
    });
  } catch (err) {
    budgetError = err as Error;
    record = usage.records().at(-1)!;
  }
  const callUsage = {
    promptTokens: record.promptTokens,
    completionTokens: record.completionTokens,
    totalTokens: record.totalTokens,
    cost: record.cost,
    priced: record.priced,
  };
  return { callUsage, budgetError };
}
