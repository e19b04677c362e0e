/**
 * Runs `fn` holding a named Redis lock (`RunRegistry.lock`), waiting for it up to `waitMs`; past
 * that a recoverable error, so the job that asked is retried with backoff rather than dropped.
 */
import { AutofixError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { RunRegistry } from '../runs/run-registry.js';

const POLL_MS = 100;

export async function withNamedLock<T>(
  locks: Pick<RunRegistry, 'lock'>,
  name: string,
  options: { ttlMs: number; waitMs: number; log: Logger },
  fn: () => Promise<T>,
): Promise<T> {
  const deadline = Date.now() + options.waitMs;
  for (;;) {
    const release = await locks.lock(name, options.ttlMs);
    if (release) {
      try {
        return await fn();
      } finally {
        await release().catch((err: unknown) =>
          options.log.warn(
            { err, lock: name },
            'could not release the lock; it expires on its own',
          ),
        );
      }
    }
    if (Date.now() > deadline) {
      throw new AutofixError('INTERNAL', `another holder keeps ${name}`, { recoverable: true });
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
