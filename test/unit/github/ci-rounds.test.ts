import { ciRoundsOf, ciRoundTrailers } from '../../../src/github/ci-rounds.js';

describe('ciRoundsOf', () => {
  it('reads the round and failure trailers of repair commits, oldest first, and skips other commits', () => {
    const rounds = ciRoundsOf([
      { sha: 'a1', message: 'fix(math): sum\n\nAutofix-Issue: 9\nAutofix-Run: run-1\n' },
      {
        sha: 'b2',
        message:
          'fix(math): double\n\n- step\n\nAutofix-Issue: 9\nAutofix-CI-Round: 1\nAutofix-CI-Failure: 0123456789abcdef\nSigned-off-by: bot\n',
      },
      { sha: 'c3', message: 'chore: by hand\n\nmentions Autofix-CI-Round: 7 inline only' },
      {
        sha: 'd4',
        message: 'fix: again\n\nAutofix-CI-Round: 2\nAutofix-CI-Failure: fedcba9876543210',
      },
    ]);
    expect(rounds).toEqual([
      { sha: 'b2', round: 1, signature: '0123456789abcdef' },
      { sha: 'd4', round: 2, signature: 'fedcba9876543210' },
    ]);
  });

  it('writes what it reads', () => {
    const message = `fix: x\n\n${ciRoundTrailers(3, 'abcdef0123456789')
      .map((t) => `${t.key}: ${t.value}`)
      .join('\n')}`;
    expect(ciRoundsOf([{ sha: 's', message }])).toEqual([
      { sha: 's', round: 3, signature: 'abcdef0123456789' },
    ]);
  });
});
