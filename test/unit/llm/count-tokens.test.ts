import { countMessageTokens, countTokens } from '../../../src/llm/count-tokens.js';

describe('countTokens', () => {
  it('counts o200k tokens', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello world')).toBe(2);
    expect(countMessageTokens([{ content: 'hello world' }])).toBe(2 + 4 + 3);
  });

  it('treats special-token text as ordinary text', () => {
    expect(countTokens('a <|endoftext|> b')).toBeGreaterThan(3);
  });

  it('estimates long letter runs instead of stalling on them', () => {
    const started = Date.now();
    // One token per two letters (an over-count: o200k needs ~1 per 8 here), plus the separator.
    expect(countTokens('A'.repeat(100_000))).toBe(50_001);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
