import { Command } from 'commander';
import { notBuilt } from './not-built.js';

export function applyPatchCommand(): Command {
  return notBuilt(
    new Command('apply-patch')
      .description(
        'Apply an LLM-written change to a repository with the engine and policy the bot uses.',
      )
      .requiredOption('--repo <dir>', 'repository to change')
      .requiredOption('--patch <file>', 'file holding the change')
      .option('--format <format>', 'udiff | fenced-files | json-writes | edit-ops', 'udiff')
      .option('--check', 'verify only; write nothing')
      .option('--json', 'print per-file and per-hunk results as JSON'),
    'issue #3',
  );
}
