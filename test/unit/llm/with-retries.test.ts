import type { AttemptFailure } from '../../../src/llm/classify-llm-error.js';
import { DEFAULT_RETRY_POLICY } from '../../../src/llm/retry-policy.js';
import { withRetries, type AttemptOutcome } from '../../../src/llm/with-retries.js';

const busy: AttemptFailure = { label: 'status 503', status: 503, retryable: true };
const badKey: AttemptFailure = { label: 'status 401', status: 401, retryable: false };

function loop(maxAttempts: number) {
  const waits: number[] = [];
  const retried: [string, number, number][] = [];
  return {
    waits,
    retried,
    options: {
      policy: { ...DEFAULT_RETRY_POLICY, maxAttempts, baseDelayMs: 100, maxDelayMs: 1000 },
      random: () => 1,
      sleep: (ms: number) => {
        waits.push(ms);
        return Promise.resolve();
      },
      onRetry: (failure: AttemptFailure, attempt: number, waitMs: number) =>
        void retried.push([failure.label, attempt, waitMs]),
    },
  };
}

const script =
  (...outcomes: AttemptOutcome<string>[]) =>
  (attempt: number): Promise<AttemptOutcome<string>> =>
    Promise.resolve(outcomes[attempt - 1]!);

describe('withRetries', () => {
  it('retries retryable failures with backoff until an attempt succeeds', async () => {
    const l = loop(4);
    const result = await withRetries(
      script({ failure: busy }, { failure: busy }, { ok: 'answer' }),
      l.options,
    );
    expect(result).toEqual({ ok: 'answer', attempts: 3 });
    expect(l.waits).toEqual([100, 200]);
    expect(l.retried).toEqual([
      ['status 503', 1, 100],
      ['status 503', 2, 200],
    ]);
  });

  it('stops at a failure that is not retryable', async () => {
    const l = loop(4);
    const result = await withRetries(script({ failure: busy }, { failure: badKey }), l.options);
    expect(result).toEqual({ failure: badKey, attempts: 2 });
    expect(l.waits).toEqual([100]);
  });

  it('gives the last failure after the last attempt, without waiting after it', async () => {
    const l = loop(2);
    const result = await withRetries(script({ failure: busy }, { failure: busy }), l.options);
    expect(result).toEqual({ failure: busy, attempts: 2 });
    expect(l.waits).toEqual([100]);
  });

  it('makes no attempt when the policy allows none', async () => {
    const l = loop(0);
    const result = await withRetries(script({ ok: 'never' }), l.options);
    expect(result).toEqual({ failure: undefined, attempts: 0 });
  });
});
