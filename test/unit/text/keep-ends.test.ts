import { keepEnds } from '../../../src/text/keep-ends.js';

describe('keepEnds', () => {
  const numbered = (n: number): string =>
    Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');

  it('keeps a short message whole', () => {
    expect(keepEnds(numbered(31))).toHaveLength(31);
  });

  it('keeps the first lines and the tail of a long one, saying how much was cut', () => {
    const kept = keepEnds(numbered(59));
    expect(kept.slice(0, 5)).toEqual(['line 1', 'line 2', 'line 3', 'line 4', 'line 5']);
    expect(kept[5]).toBe('… 29 lines cut …');
    // The runner's failure near the end (line 46 of 59) is kept.
    expect(kept).toContain('line 46');
    expect(kept.at(-1)).toBe('line 59');
    expect(kept).toHaveLength(31);
  });
});
