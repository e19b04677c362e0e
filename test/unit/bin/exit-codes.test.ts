import { readFileSync } from 'node:fs';
import { CommanderError, InvalidArgumentError } from 'commander';
import { EXIT, EXIT_CODE_TABLE, exitCodeFor, exitCodeHelp } from '../../../src/bin/exit-codes.js';
import { AutofixError } from '../../../src/errors.js';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

describe('exit codes', () => {
  it('README.md shows the same table as the code', () => {
    const section = README.slice(README.indexOf('### Exit codes'));
    const rows = [...section.matchAll(/^\| `(\d+)` +\| (.+?) +\|$/gm)].map((m) => ({
      code: Number(m[1]),
      meaning: m[2],
    }));
    expect(rows).toEqual(EXIT_CODE_TABLE.map(({ code, meaning }) => ({ code, meaning })));
  });

  it('has one row per code, in order', () => {
    expect(EXIT_CODE_TABLE.map((r) => r.code)).toEqual(Object.values(EXIT));
  });

  it('maps errors to codes', () => {
    expect(exitCodeFor(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'))).toBe(
      EXIT.OK,
    );
    expect(exitCodeFor(new CommanderError(1, 'commander.unknownOption', 'x'))).toBe(EXIT.USAGE);
    expect(exitCodeFor(new InvalidArgumentError('must be a whole number'))).toBe(EXIT.USAGE);
    expect(exitCodeFor(new AutofixError('CONFIG_INVALID', 'set APP_ID'))).toBe(EXIT.USAGE);
    expect(exitCodeFor(new AutofixError('SANDBOX_UNAVAILABLE', 'no bwrap'))).toBe(EXIT.FAILED);
    expect(exitCodeFor(new Error('ECONNREFUSED'))).toBe(EXIT.FAILED);
    expect(exitCodeFor('thrown string')).toBe(EXIT.FAILED);
  });

  it('prints the table in help within 80 columns', () => {
    const help = exitCodeHelp();
    expect(help).toContain('Exit codes:');
    for (const { code } of EXIT_CODE_TABLE) expect(help).toMatch(new RegExp(`^  ${code}  `, 'm'));
    for (const line of help.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });
});
