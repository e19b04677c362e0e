/**
 * A webhook we could not judge because a dependency failed (GitHub 5xx while reading the
 * config): answered 503 (@octokit/webhooks reads `status`) and logged, so it can be redelivered.
 */
export class RetryLaterError extends Error {
  readonly status = 503;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RetryLaterError';
  }
}
