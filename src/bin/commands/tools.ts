import { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

export function toolsCommand(): Command {
  return new Command('tools')
    .description(
      'List the tools the code agent may call (read, search, run tests, edit…), with their parameters.',
    )
    .option('--json', 'print the names, descriptions and JSON Schemas as JSON')
    .action(lazyAction(async () => (await import('../actions/tools.js')).tools));
}
