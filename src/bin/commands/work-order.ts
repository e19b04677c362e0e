import { Command, InvalidArgumentError } from 'commander';
import { readSettings, scrubSecrets } from '../../config/env.js';
import type { SandboxMode } from '../../exec/index.js';
import { sandboxOption } from '../sandbox-option.js';
import { isAutofixError } from '../../errors.js';
import { createLogger } from '../../logger.js';
import { runWorkOrder } from '../../modes/work-order/run-work-order.js';

function atLeast(min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min)
      throw new InvalidArgumentError(`must be a whole number ≥ ${min}`);
    return n;
  };
}

function temperature(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 2)
    throw new InvalidArgumentError('must be a number from 0 to 2');
  return n;
}

interface WorkOrderFlags {
  repo: string;
  workOrder: string;
  out: string;
  maxAttempts: number;
  llmModel?: string;
  llmTemperature: number;
  timeoutSeconds: number;
  sandbox: SandboxMode;
}

export function workOrderCommand(): Command {
  return new Command('work-order')
    .description(
      'Predecessor mode (seed 002): run a JSON work order with json-writes, acceptance commands and rollback.',
    )
    .requiredOption('--repo <dir>', 'git repository with a clean tree')
    .requiredOption('--work-order <file>', 'work order JSON')
    .requiredOption('--out <dir>', 'artifacts folder')
    .option('--max-attempts <n>', 'attempts', atLeast(1), 2)
    .option('--llm-model <model>', 'model name')
    .option('--llm-temperature <t>', 'temperature', temperature, 0)
    .option('--timeout-seconds <s>', 'per-command timeout', atLeast(1), 600)
    .addOption(sandboxOption())
    .action(async (flags: WorkOrderFlags) => {
      try {
        const settings = readSettings(process.env);
        scrubSecrets(process.env);
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
        process.exitCode = report.verdict === 'PASS' ? 0 : report.preflightFailed ? 2 : 1;
      } catch (err) {
        console.error(`autofix work-order: ${err instanceof Error ? err.message : String(err)}`);
        process.exitCode = isAutofixError(err) && err.code === 'CONFIG_INVALID' ? 2 : 1;
      }
    });
}
