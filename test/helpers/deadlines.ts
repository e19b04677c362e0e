/**
 * Deadlines in tests guard against a hang, nothing else: a test waits for a condition (or, before
 * asserting that something did not happen, for a marker that the processing is over), never for
 * a time. A deadline must hold on a loaded machine (other engineers' jest runs and builds on the
 * same 2 cores, a busy CI box): every deadline is a figure that is generous on a quiet machine
 * times `SLOWDOWN`. A passing test takes no longer for it; only a hang is reported later.
 *
 * `jest.config.js` applies the same scale to `testTimeout` (30 s quiet → 120 s).
 */

/** How much slower than a quiet machine every test must still pass on. */
export const SLOWDOWN = 4;

/** The deadline for something a quiet machine does well within `quietMs`. */
export function underLoad(quietMs: number): number {
  return quietMs * SLOWDOWN;
}

/** The default deadline of the `waitFor` helpers: 15 s on a quiet machine. */
export const WAIT_MS = underLoad(15_000);
