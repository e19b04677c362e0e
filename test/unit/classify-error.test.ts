import { AutofixError } from '../../src/errors.js';
import { classifyError } from '../../src/classify-error.js';

const http = (status: number, message = 'x'): Error =>
  Object.assign(new Error(message), { status });

describe('classifyError', () => {
  it('follows AutofixError.recoverable', () => {
    expect(classifyError(new AutofixError('RISK_TOO_HIGH', 'too risky'))).toMatchObject({
      transient: false,
      shape: { code: 'RISK_TOO_HIGH' },
    });
    expect(classifyError(new AutofixError('LLM_UNAVAILABLE', '429')).transient).toBe(true);
    expect(classifyError(new AutofixError('INTERNAL', 'x', { recoverable: false })).transient).toBe(
      false,
    );
  });

  it('retries GitHub 5xx, timeouts and rate limits, not other refusals', () => {
    expect(classifyError(http(502)).transient).toBe(true);
    expect(classifyError(http(429)).transient).toBe(true);
    expect(classifyError(http(403, 'You have exceeded a secondary rate limit')).transient).toBe(
      true,
    );
    expect(classifyError(http(403, 'Resource not accessible by integration'))).toMatchObject({
      transient: false,
      shape: { code: 'PERMISSION_DENIED', recoverable: false },
    });
    expect(classifyError(http(422)).shape.code).toBe('INTERNAL');
    expect(classifyError(http(422)).transient).toBe(false);
  });

  it('retries network failures, however deeply wrapped', () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    expect(classifyError(new Error('request failed', { cause: reset })).transient).toBe(true);
    expect(classifyError(new TypeError('fetch failed')).transient).toBe(true);
  });

  it('treats anything unknown as a transient INTERNAL error', () => {
    expect(classifyError(new Error('boom'))).toEqual({
      transient: true,
      shape: { code: 'INTERNAL', message: 'boom', recoverable: true },
    });
  });
});
