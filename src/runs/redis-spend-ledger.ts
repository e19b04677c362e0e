/**
 * The app's spend ledger: integer micro-dollars in three Redis keys per call,
 * `<prefix>:spend:installation:<id>:day:<YYYY-MM-DD>`, `…:month:<YYYY-MM>` and
 * `<prefix>:spend:requester:<login>:day:<YYYY-MM-DD>`, added by one Lua script (INCRBY and
 * PEXPIREAT together, so concurrent workers never lose an addition and a key never outlives its
 * period by more than `SPEND_KEEP_AFTER_MS`).
 */
import type { Redis } from 'ioredis';
import { spendPeriodsAt } from './spend-periods.js';
import {
  fromMicros,
  requesterKey,
  SPEND_KEEP_AFTER_MS,
  toMicros,
  type SpendFigures,
  type SpendLedger,
  type SpendScope,
} from './spend-ledger.js';

const ADD = `
local out = {}
for i = 1, 3 do
  out[i] = redis.call('INCRBY', KEYS[i], ARGV[1])
  redis.call('PEXPIREAT', KEYS[i], ARGV[i + 1])
end
return out
`;

type Scripted = Redis & {
  autofixSpendAdd(
    k1: string,
    k2: string,
    k3: string,
    ...args: (string | number)[]
  ): Promise<number[]>;
};

export function createRedisSpendLedger(redis: Redis, prefix: string): SpendLedger {
  const r = redis as Scripted;
  if (typeof r.autofixSpendAdd !== 'function')
    redis.defineCommand('autofixSpendAdd', { numberOfKeys: 3, lua: ADD });
  const keysOf = (scope: SpendScope, at: number) => {
    const periods = spendPeriodsAt(at);
    const installation = `${prefix}:spend:installation:${scope.installationId}`;
    return {
      keys: [
        `${installation}:day:${periods.day}`,
        `${installation}:month:${periods.month}`,
        `${prefix}:spend:requester:${requesterKey(scope.requester)}:day:${periods.day}`,
      ] as const,
      expireAt: [periods.dayEndsAt, periods.monthEndsAt, periods.dayEndsAt].map(
        (end) => end + SPEND_KEEP_AFTER_MS,
      ),
    };
  };
  const figures = (values: (string | number | null)[]): SpendFigures => {
    const [d, m, q] = values.map((v) => fromMicros(Number(v ?? 0)));
    return { installationDayUsd: d!, installationMonthUsd: m!, requesterDayUsd: q! };
  };
  return {
    async add(scope, usd, at) {
      const { keys, expireAt } = keysOf(scope, at);
      return figures(await r.autofixSpendAdd(...keys, toMicros(usd), ...expireAt));
    },
    async read(scope, at) {
      return figures(await redis.mget(...keysOf(scope, at).keys));
    },
  };
}
