import { formatCommand, splitCommand } from '../../../src/exec/split-command.js';

/** The AutofixError code a call throws (undefined when it does not throw). */
function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
}

describe('splitCommand', () => {
  it('splits with shell-word rules', () => {
    expect(splitCommand(`npm test -- --grep "a b" 'c d' e\\ f`)).toEqual([
      'npm',
      'test',
      '--',
      '--grep',
      'a b',
      'c d',
      'e f',
    ]);
  });

  it('keeps a quoted sh -c script as one word', () => {
    expect(splitCommand(`sh -c 'npm ci && npm run build | tee log'`)).toEqual([
      'sh',
      '-c',
      'npm ci && npm run build | tee log',
    ]);
  });

  it.each([
    ['npm ci && npm test', '&&'],
    ['npm test | tee out', '|'],
    ['npm test > out.txt', '>'],
    ['make; make test', ';'],
    ['sleep 1 &', '&'],
    ['echo $(id)', '$'],
    ['echo $HOME', '$HOME'],
    ['echo "${TOKEN}"', '$TOKEN'],
  ])('refuses shell syntax in %j', (command, shown) => {
    expect(codeOf(() => splitCommand(command))).toBe('CONFIG_INVALID');
    expect(() => splitCommand(command)).toThrow(shown);
  });

  it('refuses unclosed quotes, environment assignments and empty commands', () => {
    expect(() => splitCommand(`echo "oops`)).toThrow('unclosed quote');
    expect(() => splitCommand('NODE_ENV=test npm test')).toThrow('environment assignment');
    // The refusal says how to write it: `env` sets the variable for the command.
    expect(() => splitCommand('PYTHONPATH=src pytest -q tests/test_app.py')).toThrow(
      'write `env PYTHONPATH=src pytest -q tests/test_app.py`',
    );
    expect(splitCommand('env PYTHONPATH=src pytest -q')).toEqual([
      'env',
      'PYTHONPATH=src',
      'pytest',
      '-q',
    ]);
    expect(() => splitCommand('   ')).toThrow('is empty');
  });

  it('passes glob patterns to the tool unexpanded and drops comments', () => {
    expect(splitCommand('eslint src/**/*.ts # lint')).toEqual(['eslint', 'src/**/*.ts']);
  });

  it('formats an argv back into a readable line', () => {
    expect(formatCommand(['sh', '-c', "echo 'hi' && x", ''])).toBe(
      `sh -c 'echo '\\''hi'\\'' && x' ''`,
    );
  });
});
