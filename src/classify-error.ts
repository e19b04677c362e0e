/**
 * One place decides whether a failed stage is retried (renovate's single `handleError`):
 * AutofixError says so itself; GitHub answers are judged by status; network failures are
 * transient; anything unknown is INTERNAL and retried, like `toErrorShape` in src/errors.ts.
 */
import { isAutofixError, toErrorShape, type ErrorShape } from './errors.js';

export interface Verdict {
  shape: ErrorShape;
  transient: boolean;
}

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENOTFOUND',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
]);

function httpStatus(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

function isNetworkError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as Error).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (e instanceof TypeError && e.message === 'fetch failed') return true;
  }
  return false;
}

/** GitHub's primary and secondary rate limits answer 403 or 429 with these words. */
function isRateLimited(err: unknown, status: number): boolean {
  if (status === 429) return true;
  return status === 403 && /rate limit/i.test((err as Error).message ?? '');
}

export function classifyError(err: unknown): Verdict {
  if (isAutofixError(err)) return { shape: err.toShape(), transient: err.recoverable };
  const message = err instanceof Error ? err.message : String(err);
  const status = httpStatus(err);
  if (status !== undefined) {
    const transient = status >= 500 || status === 408 || isRateLimited(err, status);
    const code =
      status === 401 || status === 403 || status === 404 ? 'PERMISSION_DENIED' : 'INTERNAL';
    return {
      shape: {
        code: transient ? 'INTERNAL' : code,
        message: `GitHub answered ${status}: ${message}`,
        recoverable: transient,
      },
      transient,
    };
  }
  if (isNetworkError(err))
    return { shape: { ...toErrorShape(err), recoverable: true }, transient: true };
  return { shape: toErrorShape(err), transient: true };
}
