import { isAutofixError } from '../../../src/errors.js';
import { costOf, priceFor } from '../../../src/llm/prices.js';
import { createUsageTracker } from '../../../src/llm/usage-tracker.js';

describe('prices', () => {
  it('uses the longest matching prefix and ignores provider prefixes', () => {
    expect(priceFor('gpt-4.1-mini-2025-04-14')).toEqual({
      inputPerMillion: 0.4,
      outputPerMillion: 1.6,
    });
    expect(priceFor('gpt-4.1-2025-04-14')).toEqual({ inputPerMillion: 2, outputPerMillion: 8 });
    expect(priceFor('models/gemini-2.5-flash')).toEqual(priceFor('gemini-2.5-flash'));
  });

  it('prices unknown models at 0 and says so', () => {
    expect(costOf('llama3.1:8b', 1000, 1000)).toEqual({ cost: 0, priced: false });
  });

  it('computes cost per million tokens, with overrides', () => {
    expect(costOf('gpt-4o-mini', 1_000_000, 1_000_000).cost).toBeCloseTo(0.75);
    expect(
      costOf('qwen', 2_000_000, 0, { qwen: { inputPerMillion: 1, outputPerMillion: 2 } }).cost,
    ).toBe(2);
  });
});

describe('usage tracker', () => {
  it('sums tokens and cost and names unpriced models', () => {
    const usage = createUsageTracker();
    usage.record({
      index: 1,
      stage: 'triage',
      model: 'gpt-4o-mini',
      promptTokens: 1000,
      completionTokens: 100,
    });
    usage.record({
      index: 2,
      stage: 'plan',
      model: 'local-llama',
      promptTokens: 500,
      completionTokens: 50,
    });
    const totals = usage.totals();
    expect(totals).toMatchObject({
      calls: 2,
      promptTokens: 1500,
      completionTokens: 150,
      totalTokens: 1650,
    });
    expect(totals.cost).toBeCloseTo((1000 * 0.15 + 100 * 0.6) / 1e6);
    expect(totals.unpricedModels).toEqual(['local-llama']);
  });

  it('refuses a call that cannot fit and fails after a call that went over', () => {
    const usage = createUsageTracker({ budget: 1000 });
    usage.assertCanSpend(900);
    expect(() => usage.assertCanSpend(1001, 'plan')).toThrow(/before the plan call/);
    usage.record({ index: 1, model: 'm', promptTokens: 600, completionTokens: 100 });
    let caught: unknown;
    try {
      usage.record({
        index: 2,
        stage: 'code',
        model: 'm',
        promptTokens: 300,
        completionTokens: 50,
      });
    } catch (err) {
      caught = err;
    }
    expect(isAutofixError(caught) && caught.code).toBe('BUDGET_EXCEEDED');
    expect((caught as Error).message).toMatch(/1050 of 1000 tokens used.*token_budget/);
    expect(usage.records()).toHaveLength(2); // the over-budget call is still accounted for
  });
});
