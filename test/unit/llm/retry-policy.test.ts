import {
  DEFAULT_RETRY_POLICY,
  isRetryableStatus,
  parseRetryAfter,
  retryDelayMs,
} from '../../../src/llm/retry-policy.js';

const headers = (h: Record<string, string>) => new Headers(h);

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('reads seconds, fractional seconds and retry-after-ms', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(parseRetryAfter(headers({ 'retry-after': '0.25' }), now)).toBe(250);
    expect(parseRetryAfter(headers({ 'retry-after-ms': '120', 'retry-after': '9' }), now)).toBe(
      120,
    );
  });

  it('reads an HTTP date relative to now, never negative', () => {
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }), now)).toBe(
      5000,
    );
    expect(parseRetryAfter(headers({ 'retry-after': 'Tue, 31 Dec 2024 23:00:00 GMT' }), now)).toBe(
      0,
    );
  });

  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter(headers({}), now)).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
  });
});

describe('retryDelayMs', () => {
  const policy = {
    ...DEFAULT_RETRY_POLICY,
    baseDelayMs: 1000,
    maxDelayMs: 8000,
    maxRetryAfterMs: 30_000,
  };

  it('honours retry-after but caps it', () => {
    expect(retryDelayMs(1, 1500, policy)).toBe(1500);
    expect(retryDelayMs(1, 3_600_000, policy)).toBe(30_000);
  });

  it('doubles per attempt with equal jitter, up to the ceiling', () => {
    expect(retryDelayMs(1, undefined, policy, () => 0)).toBe(500);
    expect(retryDelayMs(1, undefined, policy, () => 1)).toBe(1000);
    expect(retryDelayMs(3, undefined, policy, () => 0.5)).toBe(3000);
    expect(retryDelayMs(10, undefined, policy, () => 1)).toBe(8000);
  });
});

describe('isRetryableStatus', () => {
  it('retries rate limits, timeouts and server errors, not client errors', () => {
    for (const s of [undefined, 408, 409, 429, 500, 502, 503, 504])
      expect(isRetryableStatus(s)).toBe(true);
    for (const s of [400, 401, 403, 404, 422]) expect(isRetryableStatus(s)).toBe(false);
  });
});
