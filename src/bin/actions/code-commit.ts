import { readSettings, requireSettings, withoutSecrets } from '../../config/env.js';
import { scrubSecrets } from '../../config/scrub-secrets.js';
import type { SandboxMode } from '../../exec/index.js';
import { createLogger } from '../../logger.js';
import { runCodeCommit } from '../../hosts/modes/code-commit/run-code-commit.js';
import { EXIT, exitCodeFor } from '../exit-codes.js';

export interface CodeCommitFlags {
  maxRounds: number;
  history?: boolean;
  sandbox: SandboxMode;
}

export async function codeCommit(flags: CodeCommitFlags): Promise<void> {
  try {
    const read = readSettings(process.env);
    scrubSecrets(process.env, read.secrets);
    // Only the LLM key is used here; the App's secrets, if set, are not kept.
    const settings = withoutSecrets(read, 'privateKey', 'webhookSecret', 'adminPassword');
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
    process.exitCode = report.passed ? EXIT.OK : EXIT.FAILED;
  } catch (err) {
    console.error(`autofix code-commit: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = exitCodeFor(err);
  }
}
