import { Command, InvalidArgumentError } from 'commander';
import { readSettings, requireSettings, scrubSecrets } from '../../config/env.js';
import type { SandboxMode } from '../../exec/index.js';
import { sandboxOption } from '../sandbox-option.js';
import { isAutofixError } from '../../errors.js';
import { createLogger } from '../../logger.js';
import { runCodeCommit } from '../../modes/code-commit/run-code-commit.js';

function wholeNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number');
  return n;
}

interface CodeCommitFlags {
  maxRounds: number;
  history?: boolean;
  sandbox: SandboxMode;
}

export function codeCommitCommand(): Command {
  return new Command('code-commit')
    .description(
      'Predecessor mode (seeds 000/001): agent-config/query.txt + codeRollup.txt → file blocks → ./build.sh repair loop.',
    )
    .option('--max-rounds <n>', 'repair rounds after the first query', wholeNumber, 3)
    .option('--history', 'accumulate every round in the repair prompt (seed 001 layout)')
    .addOption(sandboxOption())
    .action(async (flags: CodeCommitFlags) => {
      try {
        const settings = readSettings(process.env);
        scrubSecrets(process.env);
        requireSettings(settings, 'llm');
        const report = await runCodeCommit(
          {
            projectDir: process.cwd(),
            maxRounds: flags.maxRounds,
            history: Boolean(flags.history),
            sandbox: flags.sandbox,
          },
          {
            settings,
            say: (text) => console.log(text),
            progress: (text) => console.error(`code-commit: ${text}`),
            log: createLogger({ level: process.env.LOG_LEVEL ?? 'warn' }),
          },
        );
        console.log(
          report.passed
            ? `code-commit: build passed after ${report.queries} quer${report.queries === 1 ? 'y' : 'ies'}; logs in ${report.logDir}`
            : `code-commit: build still failing after ${report.queries} queries; logs in ${report.logDir}`,
        );
        process.exitCode = report.passed ? 0 : 1;
      } catch (err) {
        console.error(`autofix code-commit: ${err instanceof Error ? err.message : String(err)}`);
        process.exitCode = isAutofixError(err) && err.code === 'CONFIG_INVALID' ? 2 : 1;
      }
    });
}
