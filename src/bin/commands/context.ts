import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { DEFAULT_CONTEXT_BUDGET } from '../../context/build-prompt-context.js';
import { explainContext, formatContextReport } from '../../context/explain-context.js';

const positiveInt = (value: string): number => {
  if (!/^\d+$/.test(value) || Number(value) <= 0)
    throw new InvalidArgumentError('must be a positive whole number');
  return Number(value);
};

interface ContextOptions {
  repo: string;
  issueFile: string;
  json?: boolean;
  budget: number;
  top: number;
  show?: boolean;
}

export function contextCommand(): Command {
  return new Command('context')
    .description(
      'Show which files the bot would read for an issue, with scores, and the token count of the prompt context.',
    )
    .requiredOption('--repo <dir>', 'repository to look at')
    .requiredOption('--issue-file <file>', 'file holding the issue text')
    .option('--json', 'print the report as JSON')
    .option('--budget <tokens>', 'token budget of the context', positiveInt, DEFAULT_CONTEXT_BUDGET)
    .option('--top <n>', 'ranked files to list', positiveInt, 20)
    .option('--show', 'also print the context text as the prompt would carry it')
    .action(async (options: ContextOptions) => {
      const repo = resolve(options.repo);
      if (
        !(await stat(repo).then(
          (s) => s.isDirectory(),
          () => false,
        ))
      ) {
        console.error(`autofix context: --repo ${options.repo} is not a directory`);
        process.exitCode = 2;
        return;
      }
      let issue: string;
      try {
        issue = await readFile(options.issueFile, 'utf8');
      } catch (err) {
        console.error(`autofix context: cannot read --issue-file: ${(err as Error).message}`);
        process.exitCode = 2;
        return;
      }
      const report = await explainContext(repo, issue, {
        budget: options.budget,
        top: options.top,
      });
      if (options.json) {
        const { context, ...rest } = report;
        const extra = options.show
          ? { outline_text: context.outline.text, code_text: context.code.text }
          : {};
        console.log(JSON.stringify({ ...rest, ...extra }, null, 2));
        return;
      }
      console.log(formatContextReport(report));
      if (options.show)
        console.log(
          `\n## Repository map\n\n${report.context.outline.text}\n\n## Code\n\n${report.context.code.text}`,
        );
    });
}
