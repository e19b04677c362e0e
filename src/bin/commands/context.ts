import { Command, InvalidArgumentError } from 'commander';
import { CONTEXT_BUDGET } from '../cli-defaults.js';
import { lazyAction } from '../lazy-action.js';

const positiveInt = (value: string): number => {
  if (!/^\d+$/.test(value) || Number(value) <= 0)
    throw new InvalidArgumentError('must be a positive whole number');
  return Number(value);
};

export function contextCommand(): Command {
  return new Command('context')
    .description(
      'Show which files the bot would read for an issue, with scores, and the token count of the prompt context.',
    )
    .requiredOption('--repo <dir>', 'repository to look at')
    .requiredOption('--issue-file <file>', 'file holding the issue text')
    .option('--json', 'print the report as JSON')
    .option('--budget <tokens>', 'token budget of the context', positiveInt, CONTEXT_BUDGET)
    .option('--top <n>', 'ranked files to list', positiveInt, 20)
    .option('--show', 'also print the context text as the prompt would carry it')
    .action(lazyAction(async () => (await import('../actions/context.js')).context));
}
