/**
 * Deliveries first (issue #38). A delivery is waiting for its answer (GitHub gives up after 10 s
 * and marks it failed); a persisted trigger is not waiting for anything but its turn. The two share
 * one event loop in `serve` (admission always runs there), and admitting a trigger costs several
 * times what persisting one does (GitHub calls, the run's record, its first stage job): during a
 * burst, every admission that ran delayed the next answers, and intake answered a fifth of what
 * it could.
 *
 * So the webhook server reports each delivery it reads (`begin`, then `end` once answered), and
 * admission asks `quiet()` before each trigger: it resolves once no delivery is being read or
 * answered and none ended in the last `quietMs`, and after `maxWaitMs` at the latest, so a stream
 * of deliveries without a gap still has each admission slot take a trigger every `maxWaitMs`.
 * One timer serves every waiter.
 */

/** Its functions need no `this`: pass them around as they are. */
export interface DeliveryActivity {
  /** A delivery arrived (its body is about to be read). */
  begin: () => void;
  /** That delivery was answered, or its connection closed. Call once per `begin`. */
  end: () => void;
  /** Resolves when intake is quiet, or after the longest wait. */
  quiet: () => Promise<void>;
  /** Deliveries being read or answered now. */
  inFlight: () => number;
  /** Lets every waiter go at once (shutdown). */
  release: () => void;
}

export interface DeliveryActivityOptions {
  /** How long after the last answer intake counts as quiet (default 5 ms). */
  quietMs?: number;
  /** The longest `quiet()` waits (default 1 s). */
  maxWaitMs?: number;
  now?: () => number;
}

export const DEFAULT_QUIET_MS = 5;
export const DEFAULT_MAX_QUIET_WAIT_MS = 1000;

export function createDeliveryActivity(options: DeliveryActivityOptions = {}): DeliveryActivity {
  const quietMs = options.quietMs ?? DEFAULT_QUIET_MS;
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_QUIET_WAIT_MS;
  const now = options.now ?? (() => performance.now());
  let inFlight = 0;
  let lastEnd = -Infinity;
  const waiters = new Set<() => void>();
  let timer: NodeJS.Timeout | undefined;

  const isQuiet = (): boolean => inFlight === 0 && now() - lastEnd >= quietMs;
  const release = (): void => {
    for (const done of [...waiters]) done();
  };
  /** The one timer: checks again when the quiet period could have passed. */
  const arm = (): void => {
    if (timer || waiters.size === 0 || inFlight > 0) return; // end() arms it again
    timer = setTimeout(
      () => {
        timer = undefined;
        if (isQuiet()) release();
        else arm();
      },
      Math.max(0, lastEnd + quietMs - now()),
    );
  };

  return {
    begin() {
      inFlight++;
    },
    end() {
      inFlight = Math.max(0, inFlight - 1);
      lastEnd = now();
      arm();
    },
    quiet() {
      if (isQuiet()) return Promise.resolve();
      return new Promise((resolve) => {
        const done = (): void => {
          clearTimeout(longest);
          waiters.delete(done);
          if (waiters.size === 0 && timer) {
            clearTimeout(timer);
            timer = undefined;
          }
          resolve();
        };
        const longest = setTimeout(done, maxWaitMs);
        waiters.add(done);
        arm();
      });
    },
    inFlight: () => inFlight,
    release,
  };
}
