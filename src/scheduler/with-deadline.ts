/** Bounded waits: intake answers GitHub in time even when Redis is slow. */

/** Thrown when Redis did not answer in time; webhooks turn it into a 503 so GitHub can redeliver. */
export class QueueUnavailableError extends Error {
  /** Read by @octokit/webhooks' middleware as the HTTP status. */
  readonly status = 503;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'QueueUnavailableError';
  }
}

export interface Deadline {
  /** Resolves with `promise`, or rejects with QueueUnavailableError once the deadline passes. */
  race<T>(promise: Promise<T>, what: string): Promise<T>;
  clear(): void;
}

/** One timer for every wait of a delivery (intake runs for every webhook: keep it cheap). */
export function createDeadline(ms: number): Deadline {
  let timer: NodeJS.Timeout | undefined;
  // Once cleared it never settles, and is collected with the deadline.
  const expired = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return {
    race<T>(promise: Promise<T>, what: string): Promise<T> {
      const late = expired.then(() => {
        throw new QueueUnavailableError(`Redis did not answer in time (${what})`);
      });
      late.catch(() => undefined);
      return Promise.race([promise, late]).catch((err: unknown) => {
        if (err instanceof QueueUnavailableError) throw err;
        throw new QueueUnavailableError(`Redis failed (${what}): ${(err as Error).message}`, {
          cause: err,
        });
      });
    },
    clear() {
      clearTimeout(timer);
    },
  };
}
