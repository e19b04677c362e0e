/**
 * The budget decision (issue #36), pure: given what the run used, what a maintainer's
 * `/autofix continue` added, the caps and the ledger's figures, would the next call cross a cap?
 * `undefined` means go on; otherwise the first cap it would cross, in the order run, installation
 * day, installation month, requester day.
 *
 * A call to a model without a price costs nothing and counts its tokens against the run's token
 * cap (`token_budget`) instead; so does every call while no money cap applies to the run, so that
 * no run goes without a bound. Each `/autofix continue` after a budget parking allows one more
 * `token_budget` of tokens; after a run cap, `extraBudgetUsd` holds the USD it allowed.
 */
import type { BudgetCaps } from './budget-caps.js';
import type { BudgetCapHit, Run, RunUsage } from './run-record.js';
import { toMicros, type SpendFigures } from './spend-ledger.js';

export interface BudgetView {
  /** The run's usage so far, every stage. */
  usage: RunUsage;
  /** USD added to the run cap by `/autofix continue` (`Run.extraBudgetUsd`). */
  extraBudgetUsd: number;
  /** Tokens added to the token cap by `/autofix continue` (`extraTokensOf`). */
  extraTokens: number;
  caps: BudgetCaps;
  /** The ledger's figures now (`SpendLedger.read`). */
  spent: SpendFigures;
}

/** The next call as estimated: its USD, its tokens, and whether its model has a price. */
export interface NextCall {
  costUsd: number;
  tokens: number;
  priced: boolean;
}

/** Whether `spent` + `next` goes over `limit`, in micro-dollars (no float drift). */
const crossesUsd = (spent: number, next: number, limit: number): boolean =>
  toMicros(spent) + toMicros(next) > toMicros(limit);

export function budgetCapHit(view: BudgetView, next: NextCall): BudgetCapHit | undefined {
  const { usage, caps, spent } = view;
  if (!next.priced || caps.runUsd === undefined) {
    const limit = caps.runTokens + view.extraTokens;
    if (usage.totalTokens + next.tokens > limit)
      return { scope: 'run-tokens', limit, spent: usage.totalTokens };
  }
  if (!next.priced) return undefined;
  const money: [BudgetCapHit['scope'], number, number | undefined][] = [
    [
      'run',
      usage.costUsd,
      caps.runUsd === undefined ? undefined : caps.runUsd + view.extraBudgetUsd,
    ],
    ['installation-day', spent.installationDayUsd, caps.installationDayUsd],
    ['installation-month', spent.installationMonthUsd, caps.installationMonthUsd],
    ['requester-day', spent.requesterDayUsd, caps.requesterDayUsd],
  ];
  for (const [scope, used, limit] of money) {
    if (limit !== undefined && crossesUsd(used, next.costUsd, limit))
      return { scope, limit, spent: used };
  }
  return undefined;
}

/** Tokens the maintainers' `/autofix continue`s after budget parkings added to the token cap. */
export function extraTokensOf(run: Pick<Run, 'resumes'>, caps: BudgetCaps): number {
  return run.resumes.filter((r) => r.reason === 'budget').length * caps.runTokens;
}

/**
 * What a stage about to start can expect of its next call, before any prompt exists: the run's
 * dearest call so far (priced unless every call so far was to a model without a price). A run
 * already at a cap is stopped here; the client's own check (`run-spend-guard.ts`) stops the call
 * that would cross one.
 */
export function nextCallOfStage(usage: RunUsage): NextCall {
  return {
    costUsd: usage.maxCallCostUsd,
    tokens: 0,
    priced: usage.unpricedCalls === 0 || usage.costUsd > 0,
  };
}
