import { Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_MODEL, DEFAULT_REPAIR_ATTEMPTS, EDIT_FORMAT_CHOICES } from '../cli-defaults.js';
import { environmentHelp } from '../../config/env-vars.js';
import { lazyAction } from '../lazy-action.js';
import { sandboxOption } from '../sandbox-option.js';

function wholeNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number');
  return n;
}

export function runCommand(): Command {
  return new Command('run')
    .description(
      'Fix an issue in a local git repository: triage → plan → code → validate → commit on a new branch, no GitHub or Redis.',
    )
    .requiredOption('--repo <path>', 'local git repository (clean work tree, a branch checked out)')
    .option(
      '--issue-file <file>',
      'file holding the issue, its first line the title (required unless --issue)',
    )
    .option('--issue <text>', 'the issue text (required unless --issue-file)')
    .option('--title <title>', "issue title (default: the issue's first line)")
    .option('--number <n>', 'issue number for `Fixes #N` and the branch name', wholeNumber, 1)
    .option('--dry-run', 'triage and plan only; write nothing')
    .option(
      '--fresh',
      'start over from the checked-out branch, replacing the branch an earlier run left for this issue (without it, such a branch stops the run before it starts)',
    )
    .addOption(
      new Option(
        '--format <format>',
        'edit format (default: the repository config, else udiff)',
      ).choices(EDIT_FORMAT_CHOICES),
    )
    .option(
      '--max-attempts <n>',
      `repair attempts after the first answer (default: max_repair_attempts of the repository config, else ${DEFAULT_REPAIR_ATTEMPTS})`,
      wholeNumber,
    )
    .option(
      '--model <model>',
      `model for every stage (default: the repository config's models, else AUTOFIX_MODEL, else ${DEFAULT_MODEL})`,
    )
    .option('--artifacts <dir>', 'artifacts folder (default: $AUTOFIX_WORKDIR/runs/<run id>)')
    .option(
      '--show-diff',
      'print the committed diff after the report (default: its stat and the command that shows it)',
    )
    .addOption(sandboxOption())
    .addHelpText('after', environmentHelp('run'))
    .action(lazyAction(async () => (await import('../actions/run.js')).run));
}
