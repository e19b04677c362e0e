import { classifyError } from '../../src/classify-error.js';
import { AutofixError } from '../../src/errors.js';
import { budgetPaused } from '../../src/llm/spend-guard.js';
import { capOf, parkMessageOf, parkReasonOf } from '../../src/park-reason.js';

const paused = budgetPaused(
  { cap: { scope: 'run', limit: 2, spent: 1.94 }, message: 'paused at $1.94 of $2.00 after plan' },
  { model: 'gpt-4.1', stage: 'code', tokens: 5000, costUsd: 0.08, priced: true },
);
const outage = new AutofixError('LLM_UNAVAILABLE', 'status 503 after 4 attempts', {
  recoverable: true,
});
const badKey = new AutofixError('LLM_UNAVAILABLE', 'status 401', { recoverable: false });

describe('parkReasonOf', () => {
  it('parks a run at a budget cap, never retrying the job', () => {
    expect(parkReasonOf(paused)).toBe('budget');
    expect(parkReasonOf(paused, { willRetry: true })).toBe('budget');
    expect(classifyError(paused)).toMatchObject({
      transient: false,
      shape: { code: 'BUDGET_PAUSED', details: { cap: { scope: 'run', limit: 2, spent: 1.94 } } },
    });
  });

  it('parks on an LLM outage once the retries are spent, not on a refused key or model', () => {
    expect(parkReasonOf(outage)).toBe('llm-unavailable');
    expect(parkReasonOf(outage, { willRetry: true })).toBeUndefined();
    expect(parkReasonOf(badKey)).toBeUndefined();
  });

  it('finds the reason under a wrapping error, and none in other failures', () => {
    const wrapped = new Error('stage failed', { cause: paused });
    expect(parkReasonOf(wrapped)).toBe('budget');
    expect(capOf(wrapped)).toEqual({ scope: 'run', limit: 2, spent: 1.94 });
    expect(parkMessageOf(wrapped, 'budget', 'code', '/autofix')).toBe(
      'paused at $1.94 of $2.00 after plan',
    );
    expect(parkReasonOf(new AutofixError('BUDGET_EXCEEDED', 'tokens'))).toBeUndefined();
    expect(parkReasonOf(new Error('boom'))).toBeUndefined();
    expect(parkReasonOf(undefined)).toBeUndefined();
  });
});
