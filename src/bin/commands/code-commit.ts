import { Command } from 'commander';
import { notBuilt } from './not-built.js';

export function codeCommitCommand(): Command {
  return notBuilt(
    new Command('code-commit')
      .description(
        'Predecessor mode (seeds 000/001): agent-config/query.txt + codeRollup.txt → file blocks → ./build.sh repair loop.',
      )
      .option('--max-rounds <n>', 'repair rounds after the first query', '3')
      .option('--history', 'accumulate every round in the repair prompt (seed 001 layout)'),
    'issue #6',
  );
}
