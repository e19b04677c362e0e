/**
 * The LLM client's retry loop (the SDK's own is off): up to `policy.maxAttempts` attempts, a
 * wait between them (`retryDelayMs`), and the last failure when none succeeded.
 */
import type { AttemptFailure } from './classify-llm-error.js';
import { retryDelayMs, type RetryPolicy } from './retry-policy.js';

export type AttemptOutcome<T> = { ok: T } | { failure: AttemptFailure };

export type Retried<T> =
  | { ok: T; attempts: number }
  /** `failure` is undefined only when the policy allowed no attempt at all. */
  | { failure: AttemptFailure | undefined; attempts: number };

export interface RetryLoop {
  policy: RetryPolicy;
  random: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Cancels the wait between attempts. */
  signal?: AbortSignal | undefined;
  /** Told before each wait, e.g. to log the failure. */
  onRetry: (failure: AttemptFailure, attempt: number, waitMs: number) => void;
}

/** Runs `attemptOnce` (attempt counts from 1) until it succeeds or a failure ends the loop. */
export async function withRetries<T>(
  attemptOnce: (attempt: number) => Promise<AttemptOutcome<T>>,
  loop: RetryLoop,
): Promise<Retried<T>> {
  let failure: AttemptFailure | undefined;
  let attempt = 0;
  while (attempt < loop.policy.maxAttempts) {
    attempt++;
    const outcome = await attemptOnce(attempt);
    if ('ok' in outcome) return { ok: outcome.ok, attempts: attempt };
    failure = outcome.failure;
    if (!failure.retryable || attempt === loop.policy.maxAttempts) break;
    const wait = retryDelayMs(attempt, failure.retryAfterMs, loop.policy, loop.random);
    loop.onRetry(failure, attempt, wait);
    await loop.sleep(wait, loop.signal);
  }
  return { failure, attempts: attempt };
}
