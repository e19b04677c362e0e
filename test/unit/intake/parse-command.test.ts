import { parseCommand } from '../../../src/intake/parse-command.js';

describe('parseCommand', () => {
  it('takes the rest of the line and the following lines as instructions', () => {
    expect(parseCommand('/autofix keep the API\nand add a test', '/autofix')).toBe(
      'keep the API\nand add a test',
    );
    expect(parseCommand('\n  /autofix\n\nMore detail', '/autofix')).toBe('More detail');
  });

  it('accepts the bare command', () => {
    expect(parseCommand('/autofix', '/autofix')).toBe('');
    expect(parseCommand('/AutoFix   ', '/autofix')).toBe('');
  });

  it('ignores words that only start with the command and comments that do not start with it', () => {
    expect(parseCommand('/autofixed it', '/autofix')).toBeUndefined();
    expect(parseCommand('please /autofix', '/autofix')).toBeUndefined();
    expect(parseCommand('/fixit now', '/autofix')).toBeUndefined();
    expect(parseCommand('/fixit now', '/fixit')).toBe('now');
    expect(parseCommand('', '/autofix')).toBeUndefined();
    expect(parseCommand(' \n\t\n', '/autofix')).toBeUndefined();
  });

  it('reads Windows line endings (what browsers send) like Unix ones', () => {
    expect(parseCommand('\r\n/autofix keep the API\r\nand add a test\r\n', '/autofix')).toBe(
      'keep the API\nand add a test',
    );
  });

  it('takes a command indented up to three spaces (still a paragraph in Markdown)', () => {
    expect(parseCommand('   /autofix now', '/autofix')).toBe('now');
    expect(parseCommand('\n \n   /autofix', '/autofix')).toBe('');
  });

  it.each([
    ['four spaces', '    /autofix'],
    ['eight spaces', '        /autofix do it'],
    ['a tab', '\t/autofix'],
    ['spaces then a tab', '  \t/autofix'],
    ['a blank line, then four spaces', '\n\n    /autofix\n'],
    ['Windows line endings, then four spaces', '\r\n    /autofix\r\nmore'],
  ])('never triggers from an indented code block (%s)', (_, body) => {
    expect(parseCommand(body, '/autofix')).toBeUndefined();
  });

  it.each([
    ['a backtick fence', '```\n/autofix\n```'],
    ['a backtick fence with a language', '```sh\n/autofix do it\n```\nthanks'],
    ['a tilde fence', '~~~\n/autofix\n~~~'],
    ['an indented fence', '   ```\n/autofix\n   ```'],
    ['an unclosed fence', '\n```\n/autofix'],
    ['a blockquote', '> /autofix'],
    ['a nested blockquote', '>> /autofix do it'],
    ['an HTML comment', '<!-- /autofix -->'],
    ['a multi-line HTML comment', '<!--\n/autofix\n-->'],
    ['an inline code span', '`/autofix`'],
    ['a list item', '- /autofix'],
  ])('never triggers from %s', (_, body) => {
    expect(parseCommand(body, '/autofix')).toBeUndefined();
  });

  it('does not take a non-breaking space for indentation', () => {
    expect(parseCommand('\u00a0/autofix', '/autofix')).toBeUndefined();
  });
});
