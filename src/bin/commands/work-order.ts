import { Command, InvalidArgumentError } from 'commander';
import { DEFAULT_MODEL } from '../cli-defaults.js';
import { lazyAction } from '../lazy-action.js';
import { sandboxOption } from '../sandbox-option.js';

function atLeast(min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min)
      throw new InvalidArgumentError(`must be a whole number ≥ ${min}`);
    return n;
  };
}

function temperature(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 2)
    throw new InvalidArgumentError('must be a number from 0 to 2');
  return n;
}

export function workOrderCommand(): Command {
  return new Command('work-order')
    .description(
      'Carry out a JSON work order on a repository: the model rewrites files within allowed_files, ' +
        'then the acceptance commands run; a failed attempt is rolled back. Changes stay uncommitted.',
    )
    .requiredOption('--repo <dir>', 'git repository with a clean tree')
    .requiredOption('--work-order <file>', 'work order JSON')
    .requiredOption('--out <dir>', 'artifacts folder (outside the repository)')
    .option('--max-attempts <n>', 'attempts, each from the starting commit', atLeast(1), 2)
    .option('--llm-model <model>', `model (default: AUTOFIX_MODEL, else ${DEFAULT_MODEL})`)
    .option('--llm-temperature <t>', 'sampling temperature, 0 to 2', temperature, 0)
    .option(
      '--timeout-seconds <s>',
      'timeout of each verification and acceptance command',
      atLeast(1),
      600,
    )
    .addOption(sandboxOption())
    .action(lazyAction(async () => (await import('../actions/work-order.js')).workOrder));
}
