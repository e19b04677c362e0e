import {
  COMMIT_SUBJECT,
  formatCommitMessage,
  normaliseScope,
  validateCommitMessage,
} from '../../../src/git/commit-message.js';

/** The AutofixError code a call throws (undefined when it does not throw). */
function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
}

describe('commit messages', () => {
  it('accepts subject, blank line, Fixes #N and an optional body', () => {
    expect(() =>
      validateCommitMessage('fix(config): handle an empty config file\n\nFixes #42\n', 42),
    ).not.toThrow();
    expect(() =>
      validateCommitMessage(
        'docs(readme): correct typo in install\n\nFixes #7\n\n# Why\nIt was wrong.',
        7,
      ),
    ).not.toThrow();
  });

  it.each([
    ['wip(config): handle an empty config file\n\nFixes #42', 'first line'],
    ['fix(Config): handle an empty config file\n\nFixes #42', 'first line'],
    ['fix: handle an empty config file\n\nFixes #42', 'first line'],
    ['fix(config): too short\n\nFixes #42', 'first line'],
    [`fix(config): ${'x'.repeat(101)}\n\nFixes #42`, 'first line'],
    [`fix(config): ${'x'.repeat(73 - 'fix(config): '.length)}\n\nFixes #42`, 'at most 72'],
    ['fix(config): handle an empty config file\nFixes #42', 'second line'],
    ['fix(config): handle an empty config file\n\nFixes #41', 'Fixes #42'],
    ['fix(config): handle an empty config file\n\nFixes #42\nbody glued on', 'blank line'],
  ])('refuses %j', (message, why) => {
    expect(() => validateCommitMessage(message, 42)).toThrow(why);
    expect(codeOf(() => validateCommitMessage(message, 42))).toBe('VALIDATION_FAILED');
  });

  it('formats loose parts into a valid message', () => {
    expect(
      formatCommitMessage({
        type: 'fix',
        scope: 'Web UI',
        description: '  handle   empty input ',
        issue: 3,
      }),
    ).toBe('fix(web-ui): handle empty input\n\nFixes #3\n');
    const long = formatCommitMessage({
      type: 'feat',
      scope: 'x',
      description: 'y'.repeat(300),
      issue: 1,
    });
    expect(long.split('\n')[0]).toBe(`feat(x): ${'y'.repeat(72 - 'feat(x): '.length)}`);
    const words = formatCommitMessage({
      type: 'fix',
      scope: 'headers',
      description: 'set the Set-Cookie header as an array of values when several cookies are set',
      issue: 1,
    });
    expect(words.split('\n')[0]).toBe(
      'fix(headers): set the Set-Cookie header as an array of values',
    );
    expect(() =>
      formatCommitMessage({ type: 'fix', scope: 'x', description: 'short', issue: 1 }),
    ).toThrow();
  });

  it('counts the whole subject line: 72 characters at most', () => {
    const at72 = `fix(config): ${'x'.repeat(72 - 'fix(config): '.length)}`;
    expect(at72).toHaveLength(72);
    expect(COMMIT_SUBJECT.test(at72)).toBe(true);
    expect(COMMIT_SUBJECT.test(`${at72}x`)).toBe(false);
    expect(COMMIT_SUBJECT.test('fix(config): 123456789')).toBe(false);
  });

  it('caps a long scope at a hyphen so the description keeps room', () => {
    expect(normaliseScope('a-very-long-scope-name-for-the-http-layer')).toBe(
      'a-very-long-scope-name',
    );
    expect(normaliseScope('x'.repeat(40))).toBe('x'.repeat(24));
    expect(normaliseScope('--')).toBe('core');
    const message = formatCommitMessage({
      type: 'refactor',
      scope: 'a-very-long-scope-name-for-the-http-layer',
      description: 'split the request pipeline into stages that each own one concern',
      issue: 2,
    });
    expect(message.split('\n')[0]!.length).toBeLessThanOrEqual(72);
  });
});
