/**
 * Tokens and cost per call and per run, and the run's token budget (repo config
 * `token_budget`). One tracker per run, shared by every stage's calls.
 */
import { AutofixError } from '../errors.js';
import { costOf, DEFAULT_PRICES, type PriceTable } from './prices.js';
import type { CallUsage } from './types.js';

export interface UsageRecord extends CallUsage {
  index: number;
  stage: string | undefined;
  model: string;
}

export interface UsageTotals {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  cost: number;
  /** Models used without a known price: their cost is counted as 0. */
  unpricedModels: string[];
  budget: number | undefined;
}

export interface UsageTracker {
  /** Throws BUDGET_EXCEEDED when a call of at least `minTokens` cannot fit any more. */
  assertCanSpend(minTokens: number, stage?: string): void;
  /** Records a finished call; throws BUDGET_EXCEEDED when the run went over. */
  record(entry: {
    index: number;
    stage?: string;
    model: string;
    promptTokens: number;
    completionTokens: number;
  }): UsageRecord;
  records(): readonly UsageRecord[];
  totals(): UsageTotals;
  /** USD of a call of `model` at this tracker's prices (0 and unpriced when it has none). */
  costOf(
    model: string,
    promptTokens: number,
    completionTokens: number,
  ): {
    cost: number;
    priced: boolean;
  };
}

export interface UsageTrackerOptions {
  /** Total prompt + completion tokens the run may use; undefined = no limit. */
  budget?: number;
  /** Replaces or extends the default price table. */
  prices?: PriceTable;
}

export function createUsageTracker(options: UsageTrackerOptions = {}): UsageTracker {
  const prices = { ...DEFAULT_PRICES, ...options.prices };
  const { budget } = options;
  const list: UsageRecord[] = [];
  const used = (): number => list.reduce((sum, r) => sum + r.totalTokens, 0);

  const exceeded = (message: string): AutofixError =>
    new AutofixError('BUDGET_EXCEEDED', message, {
      details: { budget, used: used() },
      recoverable: false,
    });

  return {
    assertCanSpend(minTokens, stage) {
      if (budget === undefined) return;
      const spent = used();
      if (spent + minTokens > budget) {
        throw exceeded(
          `Token budget exceeded${stage ? ` before the ${stage} call` : ''}: ${spent} of ${budget} tokens used and the next prompt alone needs at least ${minTokens}. Raise \`token_budget\` in .github/autofix.yml or narrow the issue.`,
        );
      }
    },
    record(entry) {
      const { cost, priced } = costOf(
        entry.model,
        entry.promptTokens,
        entry.completionTokens,
        prices,
      );
      const record: UsageRecord = {
        index: entry.index,
        stage: entry.stage,
        model: entry.model,
        promptTokens: entry.promptTokens,
        completionTokens: entry.completionTokens,
        totalTokens: entry.promptTokens + entry.completionTokens,
        cost,
        priced,
      };
      list.push(record);
      const spent = used();
      if (budget !== undefined && spent > budget) {
        throw exceeded(
          `Token budget exceeded${entry.stage ? ` by the ${entry.stage} call` : ''}: ${spent} of ${budget} tokens used. Raise \`token_budget\` in .github/autofix.yml or narrow the issue.`,
        );
      }
      return record;
    },
    records: () => list,
    costOf: (model, promptTokens, completionTokens) =>
      costOf(model, promptTokens, completionTokens, prices),
    totals() {
      const sum = (f: (r: UsageRecord) => number): number => list.reduce((s, r) => s + f(r), 0);
      return {
        calls: list.length,
        promptTokens: sum((r) => r.promptTokens),
        completionTokens: sum((r) => r.completionTokens),
        totalTokens: sum((r) => r.totalTokens),
        cost: sum((r) => r.cost),
        unpricedModels: [...new Set(list.filter((r) => !r.priced).map((r) => r.model))],
        budget,
      };
    },
  };
}
