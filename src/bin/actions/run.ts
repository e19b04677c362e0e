import type { Command } from 'commander';
import type { EditFormat } from '../../config/repo-config.js';
import { readSettings, requireSettings, withoutSecrets } from '../../config/env.js';
import { scrubSecrets } from '../../config/scrub-secrets.js';
import type { SandboxMode } from '../../exec/index.js';
import { createLogger } from '../../logger.js';
import { EXIT, exitCodeFor } from '../exit-codes.js';
import { printRunReport } from '../print-run-report.js';
import { createProgressPrinter } from '../progress-printer.js';

export interface RunFlags {
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
  showDiff?: boolean;
}

export async function run(flags: RunFlags, command: Command): Promise<void> {
  if (Boolean(flags.issueFile) === Boolean(flags.issue))
    command.error('error: give exactly one of --issue-file or --issue', { exitCode: EXIT.USAGE });
  try {
    const read = readSettings(process.env);
    scrubSecrets(process.env, read.secrets);
    // Only the LLM key is used here; the App's secrets, if set, are not kept.
    const settings = withoutSecrets(read, 'privateKey', 'webhookSecret', 'adminPassword');
    requireSettings(settings, 'llm');
    const progress = createProgressPrinter(process.stderr);
    // The first line before the pipeline's modules load (the LLM client, the sandbox, git).
    progress.onEvent({ stage: 'workspace', status: 'start', message: `checking ${flags.repo}` });
    const { readIssueFile, runLocal } = await import('../../hosts/local/run-local.js');
    const issueText = flags.issueFile ? readIssueFile(flags.issueFile) : (flags.issue ?? '');
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
        // Log lines (LLM retries) clear the live progress line instead of landing inside it.
        log: createLogger({
          level: process.env.LOG_LEVEL ?? 'warn',
          destination: progress.logStream,
          pretty: process.stderr.isTTY === true,
        }),
        progress: progress.onEvent,
      },
    );
    progress.stop();
    printRunReport(report, process.stdout, { showDiff: flags.showDiff === true });
    // A stop (e.g. `reproduce: required` without a reproduction) produced no fix either.
    process.exitCode =
      report.outcome === 'failed' || report.outcome === 'stopped' ? EXIT.FAILED : EXIT.OK;
  } catch (err) {
    // Before the run started: usage or configuration.
    console.error(`autofix run: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = exitCodeFor(err);
  }
}
