import { Command } from 'commander';
import { notBuilt } from './not-built.js';

export function runCommand(): Command {
  return notBuilt(
    new Command('run')
      .description(
        'Fix an issue in a local git repository: triage → plan → code → validate → commit, no GitHub or Redis.',
      )
      .requiredOption('--repo <path>', 'local git repository (clean work tree)')
      .option('--issue-file <file>', 'file holding the issue text')
      .option('--issue <text>', 'the issue text')
      .option('--title <title>', 'issue title')
      .option('--dry-run', 'stop before writing files')
      .option('--format <format>', 'edit format: udiff | fenced-files | json-writes | edit-ops')
      .option('--max-attempts <n>', 'repair attempts')
      .option('--model <model>', 'model name'),
    'issue #5',
  );
}
