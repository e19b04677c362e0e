import { WAIT_MS } from './deadlines.js';

/**
 * Polls `probe` until it gives a value (not `undefined`, not `false`). The deadline only guards
 * against a hang: the default holds on a loaded machine (`deadlines.ts`); a longer one is
 * `underLoad(quiet ms)`.
 */
export async function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = WAIT_MS,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
