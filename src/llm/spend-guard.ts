/**
 * The money check of every LLM call (issue #36): a port the client asks before it sends a call,
 * with the call's estimated cost, and tells after the call with what it really cost. The run's
 * guard (`runs/run-spend-guard.ts`) answers from the run's record and the spend ledger; here is
 * only the shape, the estimate and the error the client throws when the guard says no.
 */
import type { BudgetCapHit } from '../contracts.js';
import { AutofixError } from '../errors.js';
import { countMessageTokens } from './count-tokens.js';
import type { CallUsage, ChatRequest } from './types.js';

type Priced = { cost: number; priced: boolean };

/** What the next call is expected to cost, before it is sent. */
export interface CallEstimate {
  model: string;
  stage?: string | undefined;
  /** Prompt tokens counted locally plus `max_tokens` (or the completion allowance). */
  tokens: number;
  /** USD at the model's price; 0 when it has none. */
  costUsd: number;
  /** False for a model without a price: its tokens count against the token cap instead. */
  priced: boolean;
}

/** A refusal: the cap and the sentence the run's status shows. */
export interface SpendRefusal {
  cap: BudgetCapHit;
  message: string;
}

export interface SpendGuard {
  /** Asked before each call that is really sent (never before a journal replay). */
  beforeCall(estimate: CallEstimate): Promise<SpendRefusal | undefined>;
  /** Told once per call that got an answer, with what it really used. */
  afterCall(call: { model: string; stage?: string | undefined; usage: CallUsage }): Promise<void>;
}

/** Completion tokens assumed for a call that sets no `max_tokens`. */
export const COMPLETION_ALLOWANCE_TOKENS = 4_096;

/** `details` of a `BUDGET_PAUSED` error (`park-reason.ts`: `capOf` reads its cap). */
export interface BudgetPausedDetails {
  cap: BudgetCapHit;
  model: string;
  stage: string | null;
  /** The estimate of the refused call. */
  estimate: { tokens: number; costUsd: number };
}

export function budgetPaused(refusal: SpendRefusal, estimate: CallEstimate): AutofixError {
  const details: BudgetPausedDetails = {
    cap: refusal.cap,
    model: estimate.model,
    stage: estimate.stage ?? null,
    estimate: { tokens: estimate.tokens, costUsd: estimate.costUsd },
  };
  return new AutofixError('BUDGET_PAUSED', refusal.message, { details, recoverable: false });
}

/**
 * The estimate of a call about to be sent: the prompt as sent counted with the local counter,
 * plus `maxTokens` (or the allowance) of completion, priced by `costOf`.
 */
export function estimateCall(
  request: Pick<ChatRequest, 'model' | 'stage' | 'maxTokens'>,
  messages: ChatRequest['messages'],
  costOf: (model: string, promptTokens: number, completionTokens: number) => Priced,
): CallEstimate {
  const promptTokens = countMessageTokens(messages);
  const completionTokens = request.maxTokens ?? COMPLETION_ALLOWANCE_TOKENS;
  const { cost, priced } = costOf(request.model, promptTokens, completionTokens);
  return {
    model: request.model,
    stage: request.stage,
    tokens: promptTokens + completionTokens,
    costUsd: cost,
    priced,
  };
}
