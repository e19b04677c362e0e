import { formatCommitMessage, validateCommitMessage } from '../../../src/git/commit-message.js';

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
    expect(long.split('\n')[0]!.length).toBeLessThanOrEqual('feat(x): '.length + 100);
    expect(() =>
      formatCommitMessage({ type: 'fix', scope: 'x', description: 'short', issue: 1 }),
    ).toThrow();
  });
});
