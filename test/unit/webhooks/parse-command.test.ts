import { parseCommand } from '../../../src/webhooks/parse-command.js';

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
  });
});
