import { runCommandOf } from '../../../src/intake/admit-run-command.js';
import { parseCommand } from '../../../src/intake/parse-command.js';

const commandOf = (body: string) => runCommandOf(parseCommand(body, '/autofix') ?? '');

describe('the commands that answer a parked run', () => {
  it('reads approve and continue, in any case, alone or with words after', () => {
    expect(commandOf('/autofix approve')).toEqual({ word: 'approve', rest: '' });
    expect(commandOf('/autofix APPROVE\n')).toEqual({ word: 'approve', rest: '' });
    expect(commandOf('/autofix continue')).toEqual({ word: 'continue', rest: '' });
  });

  it("reads plan with the maintainer's changes, over several lines", () => {
    expect(commandOf('/autofix plan use a map instead')).toEqual({
      word: 'plan',
      rest: 'use a map instead',
    });
    expect(commandOf('/autofix plan\nkeep the API\nand add a test')).toEqual({
      word: 'plan',
      rest: 'keep the API\nand add a test',
    });
  });

  it('leaves instructions that merely start with those letters to a new run', () => {
    expect(commandOf('/autofix approved by design, fix the typo')).toBeUndefined();
    expect(commandOf('/autofix planning is wrong here')).toBeUndefined();
    expect(commandOf('/autofix fix the plan parser')).toBeUndefined();
  });
});
