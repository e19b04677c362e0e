/**
 * `fitCapLazy` (the code context's water-filling with sizes counted on demand) against the plain
 * sorted version it replaced, and what it leaves uncounted: a file larger than the cap.
 */
import { createRng } from '../../../bench/patch/prng.js';
import { fitCap, fitCapLazy } from '../../../src/context/build-code-context.js';

/** The previous implementation: every size known, sorted. */
function sortedFitCap(sizes: readonly number[], available: number): number {
  const sorted = [...sizes].sort((a, b) => a - b);
  let remaining = available;
  for (let i = 0; i < sorted.length; i++) {
    const size = sorted[i] ?? 0;
    const left = sorted.length - i;
    if (size * left > remaining) return Math.max(0, Math.floor(remaining / left));
    remaining -= size;
  }
  return Infinity;
}

describe('fitCapLazy', () => {
  it('finds the cap the sorted version finds, counting no size above it', () => {
    const rng = createRng(18); // seeded: a failure can be replayed
    const random = (): number => rng.next();
    let uncounted = 0;
    for (let run = 0; run < 5_000; run++) {
      const n = Math.floor(random() * 14);
      const sizes = Array.from({ length: n }, () => Math.floor(random() * 5_000));
      // Bounds from exact (0) to very loose; ties on purpose.
      const lowers = sizes.map((s) => Math.floor(s * [0, 0.2, 0.5, 1][Math.floor(random() * 4)]!));
      const available = Math.floor(random() * 20_000) - 500;
      const counted = new Set<number>();
      const items = sizes.map((size, i) => ({
        lower: lowers[i] ?? 0,
        exact: () => {
          expect(counted.has(i)).toBe(false); // each size is counted at most once
          counted.add(i);
          return size;
        },
      }));
      const cap = fitCapLazy(items, available);
      expect([run, cap]).toEqual([run, sortedFitCap(sizes, available)]);
      expect([run, fitCap(sizes, available)]).toEqual([run, cap]);
      sizes.forEach((size, i) => {
        // A size whose bound is over the cap is never counted: the file is cut whatever it is.
        if ((lowers[i] ?? 0) > cap) expect(counted.has(i)).toBe(false);
        // Every size not counted is over the cap (so the file is rightly cut, not shown whole).
        if (!counted.has(i)) {
          expect(size).toBeGreaterThan(cap);
          uncounted++;
        }
      });
    }
    expect(uncounted).toBeGreaterThan(1_000); // the laziness is exercised, not only the sort
  });
});
