/** The spend ledger of one process (`autofix run`, tests): the same periods as Redis's. */
import { spendPeriodsAt } from './spend-periods.js';
import {
  fromMicros,
  requesterKey,
  toMicros,
  type SpendFigures,
  type SpendLedger,
  type SpendScope,
} from './spend-ledger.js';

export function createMemorySpendLedger(): SpendLedger {
  const micros = new Map<string, number>();
  const keysOf = (scope: SpendScope, at: number): [string, string, string] => {
    const { day, month } = spendPeriodsAt(at);
    return [
      `inst:${scope.installationId}:day:${day}`,
      `inst:${scope.installationId}:month:${month}`,
      `req:${requesterKey(scope.requester)}:day:${day}`,
    ];
  };
  const figures = (keys: [string, string, string]): SpendFigures => {
    const [d, m, r] = keys.map((k) => fromMicros(micros.get(k) ?? 0));
    return { installationDayUsd: d!, installationMonthUsd: m!, requesterDayUsd: r! };
  };
  return {
    add(scope, usd, at) {
      const keys = keysOf(scope, at);
      for (const key of keys) micros.set(key, (micros.get(key) ?? 0) + toMicros(usd));
      return Promise.resolve(figures(keys));
    },
    read: (scope, at) => Promise.resolve(figures(keysOf(scope, at))),
  };
}
