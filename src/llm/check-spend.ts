/**
 * Before a call is sent: the spend guard, when the run has one, is asked with the call's
 * estimate (a refusal throws `BUDGET_PAUSED`: the run parks); then the token budget of the usage
 * tracker, when it has one (`BUDGET_EXCEEDED`: the run fails).
 */
import { countMessageTokens } from './count-tokens.js';
import type { ChatCall } from './chat-call.js';
import { budgetPaused, estimateCall, type SpendGuard } from './spend-guard.js';
import type { UsageTracker } from './usage-tracker.js';

export interface SpendCheck {
  usage: UsageTracker;
  guard?: SpendGuard | undefined;
  /** Share of the local prompt count taken as certain for the token budget (servers count fewer). */
  certainty: number;
}

export async function checkSpend(call: ChatCall, check: SpendCheck): Promise<void> {
  const { request, messages } = call;
  if (check.guard) {
    const estimate = estimateCall(request, messages, (model, prompt, completion) =>
      check.usage.costOf(model, prompt, completion),
    );
    const refusal = await check.guard.beforeCall(estimate);
    if (refusal) throw budgetPaused(refusal, estimate);
  }
  if (check.usage.totals().budget !== undefined) {
    const minTokens = Math.floor(countMessageTokens(messages) * check.certainty);
    check.usage.assertCanSpend(minTokens, request.stage);
  }
}
