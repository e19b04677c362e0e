import { Command, InvalidArgumentError } from 'commander';
import { lazyAction } from '../lazy-action.js';
import { sandboxOption } from '../sandbox-option.js';

function wholeNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number');
  return n;
}

export function codeCommitCommand(): Command {
  return new Command('code-commit')
    .description(
      'Change the project in the current directory as agent-config/query.txt asks (with ' +
        'agent-config/codeRollup.txt as the code): the model writes whole files, then ./build.sh ' +
        'runs, with repair rounds while it fails. Changes stay uncommitted.',
    )
    .option('--max-rounds <n>', 'repair rounds after the first query', wholeNumber, 3)
    .option(
      '--history',
      'send every earlier round (answers and build output) in the repair prompt, not only the latest',
    )
    .addOption(sandboxOption())
    .action(lazyAction(async () => (await import('../actions/code-commit.js')).codeCommit));
}
