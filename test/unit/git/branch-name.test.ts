import { assertBotBranch, branchName, slugify } from '../../../src/git/branch-name.js';

/** The AutofixError code a call throws (undefined when it does not throw). */
function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
}

describe('branch names', () => {
  it('builds autofix/<type>/<issue>-<slug>', () => {
    expect(branchName({ type: 'fix', issue: 42, title: 'Crash when config is empty!' })).toBe(
      'autofix/fix/42-crash-when-config-is-empty',
    );
  });

  it('uses a configured prefix', () => {
    expect(branchName({ type: 'docs', issue: 7, title: 'Typo', prefix: 'bots/af/' })).toBe(
      'bots/af/docs/7-typo',
    );
    expect(() => branchName({ type: 'docs', issue: 7, title: 'x', prefix: 'no-slash' })).toThrow();
    expect(() => branchName({ type: 'docs', issue: 7, title: 'x', prefix: '../x/' })).toThrow();
  });

  it('makes an ASCII slug of at most 50 characters, cut at a word', () => {
    expect(slugify('Ünïcödé façade — “quotes” & emoji 🎉 ok')).toBe(
      'unicode-facade-quotes-emoji-ok',
    );
    const long = slugify(
      'a very long issue title that goes on and on about the many things that are broken',
    );
    expect(long.length).toBeLessThanOrEqual(50);
    expect(long).toBe('a-very-long-issue-title-that-goes-on-and-on-about');
    expect(slugify('x'.repeat(80))).toHaveLength(50);
    expect(slugify('🎉🎉')).toBe('issue');
    expect(slugify('日本語のタイトル')).toMatch(/^[a-z0-9-]+$/);
  });

  it('refuses bad issue numbers and types', () => {
    expect(() => branchName({ type: 'fix', issue: 0, title: 'x' })).toThrow();
    expect(() => branchName({ type: 'wip' as never, issue: 1, title: 'x' })).toThrow();
  });

  it('allows writes only below the bot prefix', () => {
    expect(() => assertBotBranch('autofix/fix/1-x', 'autofix/')).not.toThrow();
    for (const bad of [
      'main',
      'autofix/',
      'autofix/../main',
      'autofixx/fix',
      'autofix/a..b',
      'autofix/x.lock',
    ])
      expect(codeOf(() => assertBotBranch(bad, 'autofix/'))).toBe('PERMISSION_DENIED');
  });
});
