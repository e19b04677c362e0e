import { DEFAULT_REPO_CONFIG } from '../../../src/config/repo-config.js';
import {
  budgetCapHit,
  extraTokensOf,
  nextCallOfStage,
  type BudgetView,
} from '../../../src/runs/budget.js';
import { budgetCapsOf, type BudgetCaps } from '../../../src/runs/budget-caps.js';
import { budgetPauseMessage, formatUsd } from '../../../src/runs/budget-message.js';
import { createMemorySpendLedger } from '../../../src/runs/memory-spend-ledger.js';
import { EMPTY_USAGE, type RunUsage } from '../../../src/runs/run-record.js';
import { runBudgetHit } from '../../../src/runs/run-spend-guard.js';

const NOTHING_SPENT = { installationDayUsd: 0, installationMonthUsd: 0, requesterDayUsd: 0 };
const usage = (over: Partial<RunUsage>): RunUsage => ({ ...EMPTY_USAGE, ...over });
const view = (over: Partial<BudgetView> & { caps: BudgetCaps }): BudgetView => ({
  usage: EMPTY_USAGE,
  extraBudgetUsd: 0,
  extraTokens: 0,
  spent: NOTHING_SPENT,
  ...over,
});
const priced = (costUsd: number, tokens = 1000) => ({ costUsd, tokens, priced: true });
const unpriced = (tokens: number) => ({ costUsd: 0, tokens, priced: false });

describe('the caps of a run', () => {
  const config = (cost_budget_usd?: number) => ({
    ...DEFAULT_REPO_CONFIG,
    ...(cost_budget_usd === undefined ? {} : { cost_budget_usd }),
  });

  it("takes the smaller of the repository's and the operator's run cap", () => {
    expect(budgetCapsOf(config(5), { maxRunUsd: 2 }).runUsd).toBe(2);
    expect(budgetCapsOf(config(1.5), { maxRunUsd: 2 }).runUsd).toBe(1.5);
    expect(budgetCapsOf(config(), { maxRunUsd: 2 }).runUsd).toBe(2);
    expect(budgetCapsOf(config(3), {}).runUsd).toBe(3);
    expect(budgetCapsOf(config(), {})).toEqual({ runTokens: 400_000 });
  });

  it("carries the operator's installation and requester caps and the token budget", () => {
    expect(
      budgetCapsOf(
        { ...config(), token_budget: 1000 },
        { installationDailyUsd: 50, installationMonthlyUsd: 500, requesterDailyUsd: 10 },
      ),
    ).toEqual({
      runTokens: 1000,
      installationDayUsd: 50,
      installationMonthUsd: 500,
      requesterDayUsd: 10,
    });
  });
});

describe('budgetCapHit', () => {
  const caps: BudgetCaps = { runUsd: 2, runTokens: 100_000 };

  it('lets a call through that stays within the run cap, and stops the one that would cross it', () => {
    const v = view({ caps, usage: usage({ costUsd: 1.94, totalTokens: 90_000 }) });
    expect(budgetCapHit(v, priced(0.06))).toBeUndefined();
    expect(budgetCapHit(v, priced(0.07))).toEqual({ scope: 'run', limit: 2, spent: 1.94 });
  });

  it('counts in micro-dollars: a call that brings the run to its cap exactly does not cross it', () => {
    // In floats 0.1 + 0.2 is 0.30000000000000004, over a cap of 0.3.
    const v = view({ caps: { ...caps, runUsd: 0.3 }, usage: usage({ costUsd: 0.1 }) });
    expect(budgetCapHit(v, priced(0.2))).toBeUndefined();
    expect(budgetCapHit(v, priced(0.200001))).toMatchObject({ scope: 'run' });
  });

  it('adds what `/autofix continue` allowed to the run cap', () => {
    const v = view({ caps, usage: usage({ costUsd: 2.5 }) });
    expect(budgetCapHit(v, priced(0.1))).toMatchObject({ scope: 'run', limit: 2 });
    expect(budgetCapHit({ ...v, extraBudgetUsd: 2 }, priced(0.1))).toBeUndefined();
    expect(budgetCapHit({ ...v, extraBudgetUsd: 2 }, priced(1.6))).toEqual({
      scope: 'run',
      limit: 4,
      spent: 2.5,
    });
  });

  it("stops at the installation's day, then month, then the requester's day", () => {
    const all: BudgetCaps = {
      ...caps,
      installationDayUsd: 50,
      installationMonthUsd: 500,
      requesterDayUsd: 10,
    };
    const at = (spent: Partial<typeof NOTHING_SPENT>) =>
      budgetCapHit(view({ caps: all, spent: { ...NOTHING_SPENT, ...spent } }), priced(0.5));
    expect(at({ installationDayUsd: 49 })).toBeUndefined();
    expect(at({ installationDayUsd: 49.6 })).toEqual({
      scope: 'installation-day',
      limit: 50,
      spent: 49.6,
    });
    expect(at({ installationMonthUsd: 499.9 })).toMatchObject({ scope: 'installation-month' });
    expect(at({ requesterDayUsd: 9.9 })).toMatchObject({ scope: 'requester-day', limit: 10 });
    // The run's own cap is named first when both would be crossed.
    expect(
      budgetCapHit(
        view({
          caps: all,
          usage: usage({ costUsd: 1.9 }),
          spent: { ...NOTHING_SPENT, installationDayUsd: 49.9 },
        }),
        priced(0.5),
      ),
    ).toMatchObject({ scope: 'run' });
  });

  it('starts a new day at zero: a figure of the new period passes where the old one stopped', () => {
    const daily: BudgetCaps = { runTokens: 100_000, installationDayUsd: 5 };
    const yesterday = { ...NOTHING_SPENT, installationDayUsd: 4.99, installationMonthUsd: 4.99 };
    const today = { ...NOTHING_SPENT, installationMonthUsd: 4.99 };
    expect(budgetCapHit(view({ caps: daily, spent: yesterday }), priced(0.02))).toMatchObject({
      scope: 'installation-day',
    });
    expect(budgetCapHit(view({ caps: daily, spent: today }), priced(0.02))).toBeUndefined();
  });

  it('counts the tokens of a model without a price against token_budget, never the money caps', () => {
    const v = view({
      caps: { runUsd: 0.01, runTokens: 10_000, installationDayUsd: 0.01 },
      usage: usage({ costUsd: 5, totalTokens: 9_000 }),
      spent: { ...NOTHING_SPENT, installationDayUsd: 99 },
    });
    expect(budgetCapHit(v, unpriced(1_000))).toBeUndefined();
    expect(budgetCapHit(v, unpriced(1_001))).toEqual({
      scope: 'run-tokens',
      limit: 10_000,
      spent: 9_000,
    });
    expect(budgetCapHit({ ...v, extraTokens: 10_000 }, unpriced(1_001))).toBeUndefined();
  });

  it('bounds priced calls by token_budget when no money cap applies to the run', () => {
    const v = view({ caps: { runTokens: 10_000 }, usage: usage({ totalTokens: 9_500 }) });
    expect(budgetCapHit(v, priced(0.01, 400))).toBeUndefined();
    expect(budgetCapHit(v, priced(0.01, 600))).toMatchObject({ scope: 'run-tokens' });
    // With a money cap, the tokens of a priced call are not counted.
    expect(
      budgetCapHit({ ...v, caps: { runTokens: 10_000, runUsd: 1 } }, priced(0.01, 600)),
    ).toBeUndefined();
  });

  it('gives one token_budget more per continue after a budget parking', () => {
    const caps2: BudgetCaps = { runTokens: 1000 };
    const resumes = [
      { by: 'alice', at: 1, reason: 'budget' as const, key: 'comment:1', stage: 'code' as const },
      {
        by: 'alice',
        at: 2,
        reason: 'plan-approval' as const,
        key: 'comment:2',
        stage: 'code' as const,
      },
      { by: 'bob', at: 3, reason: 'budget' as const, key: 'comment:3', stage: 'pr' as const },
    ];
    expect(extraTokensOf({ resumes }, caps2)).toBe(2000);
  });

  it("estimates a stage's next call from the run's dearest call so far", () => {
    expect(nextCallOfStage(usage({ costUsd: 1, maxCallCostUsd: 0.3 }))).toEqual(priced(0.3, 0));
    expect(nextCallOfStage(EMPTY_USAGE)).toEqual(priced(0, 0));
    expect(nextCallOfStage(usage({ unpricedCalls: 3, totalTokens: 10 }))).toEqual(unpriced(0));
  });
});

describe('the parking message', () => {
  const ctx = { place: 'after plan', caps: { runUsd: 2, runTokens: 400_000 }, command: '/autofix' };
  const now = Date.UTC(2026, 10, 28, 20, 48);

  it("says the run cap in the issue's words", () => {
    expect(budgetPauseMessage({ scope: 'run', limit: 2, spent: 1.94 }, { ...ctx, now })).toBe(
      'paused at $1.94 of $2.00 after plan; `/autofix continue` allows up to $2.00 more',
    );
  });

  it('names the period cap and when it resets', () => {
    expect(
      budgetPauseMessage({ scope: 'installation-day', limit: 50, spent: 49.98 }, { ...ctx, now }),
    ).toBe(
      "paused at $49.98 of the installation's daily budget of $50.00 after plan; it resets at 00:00 UTC (in 3 h 12 min), and `/autofix continue` resumes the run once there is room",
    );
    expect(
      budgetPauseMessage(
        { scope: 'installation-month', limit: 500, spent: 499.5 },
        { ...ctx, now },
      ),
    ).toContain(
      "the installation's monthly budget of $500.00 after plan; it resets on 2026-12-01 at 00:00 UTC",
    );
    expect(
      budgetPauseMessage(
        { scope: 'requester-day', limit: 10, spent: 9.99 },
        { ...ctx, now, requester: 'alice' },
      ),
    ).toContain("paused at $9.99 of @alice's daily budget of $10.00 after plan");
  });

  it('speaks in tokens for the token cap', () => {
    expect(
      budgetPauseMessage(
        { scope: 'run-tokens', limit: 400_000, spent: 398_120 },
        { ...ctx, place: 'during code', now },
      ),
    ).toMatch(
      /^paused at 398,120 of 400,000 tokens during code .*`\/autofix continue` allows up to 400,000 more tokens$/,
    );
  });

  it('formats money with 2 decimals, more below a cent', () => {
    expect([0, 0.004213, 0.000123, 0.01, 1.005, 12].map(formatUsd)).toEqual([
      '$0.00',
      '$0.0042',
      '$0.00012',
      '$0.01',
      '$1.00',
      '$12.00',
    ]);
  });
});

describe('runBudgetHit (the check before a stage starts)', () => {
  const run = {
    installationId: 7,
    sender: 'alice',
    usage: usage({ costUsd: 0.5, maxCallCostUsd: 0.2 }),
    extraBudgetUsd: 0,
    resumes: [],
  };
  const NOON = Date.UTC(2026, 10, 28, 12);

  it("stops a stage whose next call, as dear as the run's dearest, would cross a cap", async () => {
    const ledger = createMemorySpendLedger();
    const caps: BudgetCaps = { runUsd: 0.8, runTokens: 100_000, requesterDayUsd: 3 };
    expect(await runBudgetHit(run, caps, ledger, nextCallOfStage(run.usage), NOON)).toBeUndefined();
    await ledger.add({ installationId: 9, requester: 'ALICE' }, 2.9, NOON);
    expect(await runBudgetHit(run, caps, ledger, nextCallOfStage(run.usage), NOON)).toEqual({
      scope: 'requester-day',
      limit: 3,
      spent: 2.9,
    });
    const late = { ...run, usage: usage({ costUsd: 0.7, maxCallCostUsd: 0.2 }) };
    expect(await runBudgetHit(late, caps, ledger, nextCallOfStage(late.usage), NOON)).toMatchObject(
      {
        scope: 'run',
      },
    );
  });
});
