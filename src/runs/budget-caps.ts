/**
 * The caps a run's calls answer to (issue #36), from the repository's `.github/autofix.yml` and
 * the operator's environment: the run's own money cap is the smaller of `cost_budget_usd` and
 * `MAX_RUN_COST_USD` (either alone when the other is unset, none when both are); the token cap
 * is `token_budget`; the installation and requester caps are the operator's.
 */
import type { OperatorCostCaps } from '../config/env.js';
import type { RepoConfig } from '../config/repo-config.js';

export interface BudgetCaps {
  /** USD per run (before a maintainer's `/autofix continue` adds to it); none when absent. */
  runUsd?: number;
  /** Tokens per run: the cap of models without a price, and of every call without `runUsd`. */
  runTokens: number;
  installationDayUsd?: number;
  installationMonthUsd?: number;
  requesterDayUsd?: number;
}

/** The smaller of two optional caps; undefined when neither is set. */
function smaller(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  return b === undefined ? a : Math.min(a, b);
}

export function budgetCapsOf(
  config: Pick<RepoConfig, 'cost_budget_usd' | 'token_budget'>,
  operator: OperatorCostCaps,
): BudgetCaps {
  const runUsd = smaller(config.cost_budget_usd, operator.maxRunUsd);
  return {
    ...(runUsd === undefined ? {} : { runUsd }),
    runTokens: config.token_budget,
    ...(operator.installationDailyUsd === undefined
      ? {}
      : { installationDayUsd: operator.installationDailyUsd }),
    ...(operator.installationMonthlyUsd === undefined
      ? {}
      : { installationMonthUsd: operator.installationMonthlyUsd }),
    ...(operator.requesterDailyUsd === undefined
      ? {}
      : { requesterDayUsd: operator.requesterDailyUsd }),
  };
}
