import { Command, Option } from 'commander';
import { EDIT_FORMAT_CHOICES } from '../cli-defaults.js';
import { lazyAction } from '../lazy-action.js';

export function applyPatchCommand(): Command {
  return new Command('apply-patch')
    .description(
      'Apply an LLM-written change to a repository with the engine and policy the bot uses.',
    )
    .requiredOption('--repo <dir>', 'repository to change')
    .requiredOption('--patch <file>', 'file holding the change')
    .addOption(
      new Option('--format <format>', 'edit format').choices(EDIT_FORMAT_CHOICES).default('udiff'),
    )
    .option('--check', 'verify only; write nothing')
    .option('--json', 'print per-file and per-hunk results as JSON')
    .action(lazyAction(async () => (await import('../actions/apply-patch.js')).applyPatch));
}
