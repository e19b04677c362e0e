import { readSettings, withoutSecrets } from '../../config/env.js';
import { scrubSecrets } from '../../config/scrub-secrets.js';
import type { SandboxMode } from '../../exec/index.js';
import { createLogger } from '../../logger.js';
import { runWorkOrder } from '../../hosts/modes/work-order/run-work-order.js';
import { EXIT, exitCodeFor } from '../exit-codes.js';

export interface WorkOrderFlags {
  repo: string;
  workOrder: string;
  out: string;
  maxAttempts: number;
  llmModel?: string;
  llmTemperature: number;
  timeoutSeconds: number;
  sandbox: SandboxMode;
}

export async function workOrder(flags: WorkOrderFlags): Promise<void> {
  try {
    const read = readSettings(process.env);
    scrubSecrets(process.env, read.secrets);
    // Only the LLM key is used here; the App's secrets, if set, are not kept.
    const settings = withoutSecrets(read, 'privateKey', 'webhookSecret', 'adminPassword');
    const progress = (text: string): void => console.error(`work-order: ${text}`);
    const report = await runWorkOrder(
      {
        repo: flags.repo,
        workOrderFile: flags.workOrder,
        out: flags.out,
        maxAttempts: flags.maxAttempts,
        ...(flags.llmModel ? { model: flags.llmModel } : {}),
        temperature: flags.llmTemperature,
        timeoutSeconds: flags.timeoutSeconds,
        sandbox: flags.sandbox,
      },
      {
        settings,
        log: createLogger({ level: process.env.LOG_LEVEL ?? 'warn' }),
        progress,
      },
    );
    console.log(`verdict: ${report.verdict}`);
    console.log(`run_summary: ${report.summaryPath}`);
    process.exitCode =
      report.verdict === 'PASS' ? EXIT.OK : report.preflightFailed ? EXIT.USAGE : EXIT.FAILED;
  } catch (err) {
    console.error(`autofix work-order: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = exitCodeFor(err);
  }
}
