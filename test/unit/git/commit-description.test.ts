import { fitDescription, normaliseDescription } from '../../../src/git/commit-description.js';

describe('normaliseDescription', () => {
  it.each([
    // prefixes, trailing punctuation, whitespace
    ['fix(headers): set Set-Cookie header as an array.', 'set Set-Cookie header as an array'],
    ['feat!: add a --dry-run flag', 'add a --dry-run flag'],
    ['[bug]  handle   an empty\nconfig file...', 'handle an empty config file'],
    ['This commit fixes the parser on CRLF input', 'fix the parser on CRLF input'],
    // the imperative repair: the small verb table only
    ['Fixed X so that it works', 'fix X so that it works'],
    ['Fixes the crash on empty input', 'fix the crash on empty input'],
    ['Fixing the crash on empty input', 'fix the crash on empty input'],
    ['Adds a retry to the fetch', 'add a retry to the fetch'],
    ['Added a retry to the fetch', 'add a retry to the fetch'],
    ['Makes add() return the sum', 'make add() return the sum'],
    ['Returning early for empty files', 'return early for empty files'],
    ['Stopped retrying on 404', 'stop retrying on 404'],
    ['sets the header once', 'set the header once'],
    // casing: plain capitalised word lower-cased, identifiers kept
    ['Return the defaults', 'return the defaults'],
    ['Set-Cookie header becomes an array', 'Set-Cookie header becomes an array'],
    ['URLSearchParams keeps repeated keys', 'URLSearchParams keeps repeated keys'],
    ['README gets the install steps', 'README gets the install steps'],
    ['FIX the build', 'FIX the build'],
    ['parseConfig returns defaults', 'parseConfig returns defaults'],
    ['A new option for retries', 'A new option for retries'],
  ])('%j → %j', (input, expected) => {
    expect(normaliseDescription(input)).toBe(expected);
  });

  it('is idempotent', () => {
    for (const s of ['Fixed X so that it works.', 'fix(a): Set-Cookie as array', 'Adds y']) {
      const once = normaliseDescription(s);
      expect(normaliseDescription(once)).toBe(once);
    }
  });
});

describe('fitDescription', () => {
  it('keeps text that fits', () => {
    expect(fitDescription('handle an empty config file', 27)).toBe('handle an empty config file');
  });

  it('cuts at a word boundary, without an ellipsis or a dangling connective', () => {
    const text = 'set the Set-Cookie header as an array of values when several cookies are set';
    const out = fitDescription(text, 40);
    expect(out).toBe('set the Set-Cookie header as an array');
    expect(out.length).toBeLessThanOrEqual(40);
    expect(out).not.toMatch(/…|\.\.\.$/);
    expect(fitDescription('return the value and the index of it', 23)).toBe('return the value');
  });

  it('does not leave a code span or a parenthesis open', () => {
    expect(fitDescription('merge the defaults via `parseConfig(text, options)` first', 45)).toBe(
      'merge the defaults',
    );
    expect(fitDescription('call `parse(text, options)` first', 20)).toBe('call parse');
    expect(fitDescription('escape the name (as git does it for refs)', 30)).toBe('escape the name');
  });

  it('cuts inside a word only when one word is longer than the budget', () => {
    expect(fitDescription('x'.repeat(80), 50)).toBe('x'.repeat(50));
    expect(fitDescription(`${'😀'.repeat(30)}`, 21).length).toBeLessThanOrEqual(21);
  });
});

describe('fitDescription at clause boundaries', () => {
  it('ends before the clause it would cut into, when that keeps enough', () => {
    const step = 'return the defaults from parseConfig when the file is empty';
    expect(fitDescription(step, 58)).toBe('return the defaults from parseConfig');
    // A cut that already falls between clauses stays where it is.
    const readme = 'update the README install section to mention Node 20 and the new CLI flags';
    expect(fitDescription(readme, 58)).toBe('update the README install section to mention Node 20');
    // Too early a clause start: the word-boundary cut is kept.
    expect(fitDescription('fix it, then store the Set-Cookie values in one array each', 40)).toBe(
      'fix it, then store the Set-Cookie values',
    );
  });
});
