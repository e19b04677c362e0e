/**
 * When to try an LLM request again and how long to wait first. Pure: the clock and the random
 * source are passed in so tests can pin them.
 */

export interface RetryPolicy {
  /** Total HTTP attempts per call, the first included. */
  maxAttempts: number;
  /** Wait before the second attempt; doubled for each further one. */
  baseDelayMs: number;
  /** Ceiling of the exponential wait. */
  maxDelayMs: number;
  /** Ceiling of a server's `retry-after`: a server asking for an hour does not stall a run. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 1_000,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
};

/** Rate limits, timeouts, conflicts and server errors pass; other 4xx (bad key, bad request) do not. */
export function isRetryableStatus(status: number | undefined): boolean {
  if (status === undefined) return true; // no response at all: connection error or timeout
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Milliseconds a server asked us to wait, from `retry-after-ms` (OpenAI) or `retry-after`
 * (seconds or an HTTP date); undefined when absent or unreadable.
 */
export function parseRetryAfter(
  headers: { get(name: string): string | null } | undefined,
  now: number,
): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.max(0, Number(ms));
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Wait before attempt `attempt + 1` (attempt counts from 1). A server's `retry-after` wins,
 * capped; otherwise exponential backoff with "equal jitter" (half fixed, half random) so
 * parallel workers that failed together do not retry together.
 */
export function retryDelayMs(
  attempt: number,
  retryAfterMs: number | undefined,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxRetryAfterMs);
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(exponential / 2 + (random() * exponential) / 2);
}
