import { Command } from 'commander';
import { notBuilt } from './not-built.js';

export function workOrderCommand(): Command {
  return notBuilt(
    new Command('work-order')
      .description(
        'Predecessor mode (seed 002): run a JSON work order with json-writes, acceptance commands and rollback.',
      )
      .requiredOption('--repo <dir>', 'git repository with a clean tree')
      .requiredOption('--work-order <file>', 'work order JSON')
      .requiredOption('--out <dir>', 'artifacts folder')
      .option('--max-attempts <n>', 'attempts', '2')
      .option('--llm-model <model>', 'model name')
      .option('--llm-temperature <t>', 'temperature', '0')
      .option('--timeout-seconds <s>', 'per-command timeout', '600'),
    'issue #6',
  );
}
