import { runIdOfPull, runLine } from '../../../src/github/pull-run-id.js';
import { closedTrigger } from '../../../src/intake/on-pull-closed.js';
import { isBotPullRequest } from '../../../src/intake/resolve-bot-pull-request.js';
import { revertedCommitsOf, revertedPullOf } from '../../../src/intake/revert-of.js';
import { pullClosedPayload } from '../../helpers/webhooks.js';

const SHA = '0123456789abcdef0123456789abcdef01234567';
const BOT = 'autofix-test[bot]';

describe('revert detection (payload only)', () => {
  it("reads git's revert line, of a merge too, each commit once", () => {
    expect(
      revertedCommitsOf([
        `Revert "fix(x): a thing"\n\nThis reverts commit ${SHA}.`,
        `Revert "Merge pull request #5"\n\nThis reverts commit ${SHA.toUpperCase()}, reversing\nchanges made to ${'b'.repeat(40)}.`,
        'fix: This reverts commit abc1234 (too short to be a merge sha)',
      ]),
    ).toEqual([SHA]);
  });

  it("reads GitHub's revert PR line for the same repository only", () => {
    expect(revertedPullOf('Reverts Octo/App#12', 'octo/app')).toBe(12);
    expect(revertedPullOf('Some text\n\nReverts octo/app#12\n', 'octo/app')).toBe(12);
    expect(revertedPullOf('Reverts other/app#12', 'octo/app')).toBeUndefined();
    expect(revertedPullOf('This Reverts octo/app#12 maybe', 'octo/app')).toBeUndefined();
    expect(revertedPullOf('Reverts octoXapp#12', 'octo.app')).toBeUndefined();
    expect(revertedPullOf(null, 'octo/app')).toBeUndefined();
  });
});

describe("a PR's run id", () => {
  it("is the oldest commit's Autofix-Run trailer", () => {
    const commits = [
      { message: 'chore: by a person' },
      { message: 'fix(x): thing\n\nFixes #3\n\nAutofix-Run: run-aaaa\nSigned-off-by: bot' },
      { message: 'fix(x): feedback\n\nAutofix-Run: run-bbbb' },
    ];
    expect(runIdOfPull(commits, `${runLine('run-cccc')}\n`)).toBe('run-aaaa');
  });

  it("falls back on the description's run line, and refuses what is no id", () => {
    expect(runIdOfPull([{ message: 'x' }], `- Branch: b\n${runLine('run-cccc')}\n`)).toBe(
      'run-cccc',
    );
    expect(runIdOfPull([{ message: 'Autofix-Run: ../../x' }], 'no line')).toBeUndefined();
  });
});

describe('closed PR triggers', () => {
  const closed = (o: Partial<Parameters<typeof pullClosedPayload>[0]> = {}) =>
    pullClosedPayload({
      number: 9,
      author: BOT,
      headRef: 'autofix/fix/3-thing',
      merged: true,
      mergeSha: SHA,
      closedAt: '2026-11-01T10:00:00Z',
      ...o,
    }) as never;

  it("keeps a bot's merged PR from the repository itself, keyed by its closing", () => {
    const t = closedTrigger('d1', closed(), 'autofix/', 5);
    expect(t).toMatchObject({
      event: 'pull_request.closed',
      issue: { number: 9, isPullRequest: true },
      closed: {
        prNumber: 9,
        merged: true,
        mergeSha: SHA,
        at: Date.parse('2026-11-01T10:00:00Z'),
        author: BOT,
        head: { ref: 'autofix/fix/3-thing', repo: 'Codertocat/Hello-World' },
      },
    });
    expect(closedTrigger('d2', closed(), 'autofix/', 6)?.triggerKey).toBe(t?.triggerKey);
    expect(closedTrigger('d1', closed({ merged: false }), undefined)?.closed?.mergeSha).toBeNull();
  });

  it("leaves a person's PR, a fork's PR and another prefix's branch", () => {
    expect(closedTrigger('d', closed({ author: 'maintainer' }), 'autofix/')).toBeUndefined();
    expect(
      closedTrigger('d', closed({ headRepo: 'fork/Hello-World' }), 'autofix/'),
    ).toBeUndefined();
    expect(closedTrigger('d', closed(), 'bots/')).toBeUndefined();
  });

  it('is checked again at admission the way feedback is: bot login, prefix, not a fork', () => {
    const repo = { owner: 'octo', repo: 'app' };
    const pull = {
      user: { login: BOT },
      head: { ref: 'autofix/fix/3-x', repo: { full_name: 'Octo/App' } },
    };
    expect(isBotPullRequest(pull, repo, 'autofix/', BOT)).toBe(true);
    expect(isBotPullRequest(pull, repo, 'autofix/', 'other[bot]')).toBe(false);
    expect(
      isBotPullRequest({ ...pull, head: { ...pull.head, repo: null } }, repo, 'autofix/', BOT),
    ).toBe(false);
  });
});
