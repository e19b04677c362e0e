import { Command, InvalidArgumentError, Option } from 'commander';
import { EDIT_FORMATS, type EditFormat } from '../../config/repo-config.js';
import { readSettings, requireSettings, scrubSecrets } from '../../config/env.js';
import type { SandboxMode } from '../../exec/index.js';
import { sandboxOption } from '../sandbox-option.js';
import { isAutofixError } from '../../errors.js';
import { createLogger } from '../../logger.js';
import { readIssueFile, runLocal } from '../../pipeline/run-local.js';
import { createProgressPrinter } from '../progress-printer.js';
import { printRunReport } from '../print-run-report.js';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number');
  return n;
}

interface RunFlags {
  repo: string;
  issueFile?: string;
  issue?: string;
  title?: string;
  number: number;
  dryRun?: boolean;
  fresh?: boolean;
  format?: EditFormat;
  maxAttempts?: number;
  model?: string;
  artifacts?: string;
  sandbox: SandboxMode;
}

export function runCommand(): Command {
  return new Command('run')
    .description(
      'Fix an issue in a local git repository: triage → plan → code → validate → commit on a new branch, no GitHub or Redis.',
    )
    .requiredOption('--repo <path>', 'local git repository (clean work tree, a branch checked out)')
    .option('--issue-file <file>', 'file holding the issue (first line = title unless --title)')
    .option('--issue <text>', 'the issue text')
    .option('--title <title>', 'issue title')
    .option('--number <n>', 'issue number for `Fixes #N` and the branch name', positiveInt, 1)
    .option('--dry-run', 'triage and plan only; write nothing')
    .option(
      '--fresh',
      'start over from the checked-out branch, replacing the branch an earlier run left for this issue (without it, such a branch stops the run before it starts)',
    )
    .addOption(
      new Option(
        '--format <format>',
        'edit format (default: the repository config, else udiff)',
      ).choices(EDIT_FORMATS),
    )
    .option('--max-attempts <n>', 'repair attempts after the first answer', positiveInt)
    .option('--model <model>', 'model for every stage (default: config models, else AUTOFIX_MODEL)')
    .option('--artifacts <dir>', 'artifacts folder (default: $AUTOFIX_WORKDIR/runs/<run id>)')
    .addOption(sandboxOption())
    .action(async (flags: RunFlags, command: Command) => {
      if (Boolean(flags.issueFile) === Boolean(flags.issue))
        command.error('error: give exactly one of --issue-file or --issue', { exitCode: 2 });
      try {
        const settings = readSettings(process.env);
        scrubSecrets(process.env);
        requireSettings(settings, 'llm');
        const issueText = flags.issueFile ? readIssueFile(flags.issueFile) : (flags.issue ?? '');
        const progress = createProgressPrinter(process.stderr);
        const report = await runLocal(
          {
            repo: flags.repo,
            issueText,
            number: flags.number,
            ...(flags.title ? { title: flags.title } : {}),
            ...(flags.dryRun ? { dryRun: true } : {}),
            ...(flags.fresh ? { fresh: true } : {}),
            ...(flags.format ? { format: flags.format } : {}),
            ...(flags.maxAttempts === undefined ? {} : { maxAttempts: flags.maxAttempts }),
            ...(flags.model ? { model: flags.model } : {}),
            ...(flags.artifacts ? { artifactsDir: flags.artifacts } : {}),
            sandbox: flags.sandbox,
          },
          settings,
          {
            log: createLogger({ level: process.env.LOG_LEVEL ?? 'warn' }),
            progress: progress.onEvent,
          },
        );
        progress.stop();
        printRunReport(report, process.stdout);
        process.exitCode = report.outcome === 'failed' ? 1 : 0;
      } catch (err) {
        // Before the run started: usage or configuration.
        console.error(`autofix run: ${err instanceof Error ? err.message : String(err)}`);
        process.exitCode = isAutofixError(err) && err.code === 'CONFIG_INVALID' ? 2 : 1;
      }
    });
}
