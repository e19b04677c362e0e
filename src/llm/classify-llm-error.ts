/** Turns what the SDK throws into a retry decision and a message a maintainer can act on. */
import { APIConnectionTimeoutError, APIError } from 'openai';
import { isRetryableStatus, parseRetryAfter } from './retry-policy.js';

export interface AttemptFailure {
  /** `status 503 (…)`, `timeout after 120000 ms`, `connection error: …`. */
  label: string;
  /** HTTP status; undefined when no response arrived. */
  status: number | undefined;
  retryable: boolean;
  retryAfterMs?: number | undefined;
}

export function classifyLlmError(err: unknown, now: number, timeoutMs: number): AttemptFailure {
  if (err instanceof APIConnectionTimeoutError)
    return { label: `timeout after ${timeoutMs} ms`, status: undefined, retryable: true };
  if (err instanceof APIError) {
    const apiError = err as APIError<number | undefined, Headers | undefined>;
    if (apiError.status === undefined) {
      const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
      return { label: `connection error${cause}`, status: undefined, retryable: true };
    }
    return {
      label: `status ${apiError.status} (${apiError.message})`,
      status: apiError.status,
      retryable: isRetryableStatus(apiError.status),
      retryAfterMs: parseRetryAfter(apiError.headers, now),
    };
  }
  return {
    label: err instanceof Error ? err.message : String(err),
    status: undefined,
    retryable: false,
  };
}

/** OpenAI's API: the endpoint when OPENAI_BASE_URL is unset. */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/**
 * What to check after a failure, by status. No answer at all from OpenAI's own endpoint is a
 * network matter (proxy, firewall, DNS), or OPENAI_BASE_URL was meant to be set; from any
 * other endpoint, OPENAI_BASE_URL is what points there.
 */
export function hintFor(status: number | undefined, model: string, endpoint?: string): string {
  if (status === 401 || status === 403) return ' Check OPENAI_API_KEY.';
  if (status === 404) return ` Check the model name (${model}) and OPENAI_BASE_URL.`;
  if (status === 429) return ' The server is rate limiting; try again later or lower concurrency.';
  if (status !== undefined) return '';
  if (endpoint === OPENAI_DEFAULT_BASE_URL) {
    return (
      ` Check that this host can reach ${OPENAI_DEFAULT_BASE_URL} (network access, proxy, ` +
      'firewall, DNS), or set OPENAI_BASE_URL if a local or other server is meant.'
    );
  }
  return ' Check that OPENAI_BASE_URL points at a running server.';
}

/** Base URL without credentials or query string, safe to print. */
export function describeEndpoint(baseUrl: string): string {
  if (!URL.canParse(baseUrl)) return baseUrl;
  const url = new URL(baseUrl);
  url.username = '';
  url.password = '';
  url.search = '';
  return url.toString().replace(/\/$/, '');
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
