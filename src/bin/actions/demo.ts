import { envFilePath, loadDotEnv } from '../../config/dotenv.js';
import { readSettings } from '../../config/env.js';
import type { SandboxMode } from '../../exec/index.js';
import { EXIT, exitCodeFor } from '../exit-codes.js';
import { printRunReport } from '../print-run-report.js';
import { createProgressPrinter } from '../progress-printer.js';

export interface DemoFlags {
  app?: boolean;
  dir?: string;
  workdir?: string;
  keep?: boolean;
  sandbox: SandboxMode;
}

export async function demo(flags: DemoFlags): Promise<void> {
  const options = {
    ...(flags.dir ? { dir: flags.dir } : {}),
    ...(flags.workdir ? { workdir: flags.workdir } : {}),
    ...(flags.keep ? { keep: true } : {}),
    sandbox: flags.sandbox === 'none' ? ('none' as const) : ('bwrap' as const),
  };
  try {
    if (flags.app) {
      // Only where Redis is: REDIS_URL as `serve` reads it (environment, then `.env`). Nothing
      // else of the user's environment (no key, no App credentials) goes into the demo.
      const env: Record<string, string | undefined> = { REDIS_URL: process.env.REDIS_URL };
      loadDotEnv(envFilePath(process.env), env);
      const { redisUrl } = readSettings({ REDIS_URL: env.REDIS_URL });
      const { runDemoApp } = await import('../../demo/run-demo-app.js');
      const result = await runDemoApp({ ...options, redisUrl }, process.stdout);
      process.exitCode = result.ok ? EXIT.OK : EXIT.FAILED;
      return;
    }
    const { runDemo } = await import('../../demo/run-demo.js');
    const progress = createProgressPrinter(process.stderr);
    const report = await runDemo(options, {
      out: process.stdout,
      progress: progress.onEvent,
      progressDone: progress.stop,
      printReport: printRunReport,
    });
    process.exitCode = report.outcome === 'success' ? EXIT.OK : EXIT.FAILED;
  } catch (err) {
    console.error(`autofix demo: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = exitCodeFor(err);
  }
}
