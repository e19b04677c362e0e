import { Command } from 'commander';
import { createRedactor } from '../../artifacts/redact.js';
import { loadDotEnv } from '../../config/dotenv.js';
import { readSettings, requireSettings, scrubSecrets } from '../../config/env.js';
import { createLogger } from '../../logger.js';
import { sandboxAtStart } from '../sandbox-at-start.js';
import { createRunFailedHook, createStageProcessors } from '../../pipeline/app-stages.js';
import { checkRedis } from '../../queue/check-redis.js';
import { createMetrics } from '../../queue/metrics.js';
import { healthz } from '../../server/healthz.js';
import { startSetupServer } from '../../server/setup-mode.js';
import { startAutofix } from '../../server/start-autofix.js';
import {
  readWorkerFlags,
  stopOnSignals,
  withWorkerFlags,
  type WorkerFlags,
} from './worker-flags.js';

export function serveCommand(): Command {
  return withWorkerFlags(
    new Command('serve')
      .description(
        'Serve GitHub webhooks (and run job processors in-process unless --no-workers). ' +
          "Without APP_ID/PRIVATE_KEY it serves Probot's setup page that registers the app from app.yml.",
      )
      .option('--no-workers', 'only take webhooks; run `autofix worker` processes separately'),
  ).action(async (flags: WorkerFlags & { workers: boolean }) => {
    loadDotEnv('.env', process.env);
    const settings = readSettings(process.env);
    // From here on the secrets live in `settings` only: no child process can inherit them.
    scrubSecrets(process.env);
    const redact = createRedactor(settings.secrets);
    const log = createLogger({ level: settings.logLevel, redact });
    const worker = readWorkerFlags(flags);
    // Refuse to start before anything else when Redis is away or evicts keys.
    await checkRedis(settings.redisUrl);
    const host = settings.host ?? '0.0.0.0';
    if (!settings.appId || !settings.privateKey) {
      const server = await startSetupServer({
        host,
        port: settings.port,
        log,
        handlers: [healthz],
      });
      log.info(
        `No GitHub App credentials yet: open http://localhost:${server.port} to register Autofix from app.yml.`,
      );
      return;
    }
    requireSettings(settings, 'github');
    const metrics = createMetrics({ defaultMetrics: true });
    // Repository code runs only in a sandbox that proved itself (or where the operator said none).
    const sandbox = flags.workers ? await sandboxAtStart(settings, log) : undefined;
    const stageDeps = { settings, log, metrics, redact, ...(sandbox ? { sandbox } : {}) };
    const app = await startAutofix({
      github: {
        appId: settings.appId,
        privateKey: settings.privateKey,
        webhookSecret: settings.webhookSecret ?? '',
        apiUrl: settings.githubApiUrl,
      },
      redisUrl: settings.redisUrl,
      prefix: worker.prefix,
      host,
      port: settings.port,
      ...(settings.adminPassword ? { adminPassword: settings.adminPassword } : {}),
      reconcileIntervalMs: settings.reconcileIntervalMs,
      admissionStalled: {
        lockDurationMs: worker.lockDurationMs,
        stalledIntervalMs: worker.stalledIntervalMs,
      },
      log,
      redact,
      metrics,
      ...(flags.workers
        ? {
            workers: {
              processors: createStageProcessors(stageDeps),
              onRunFailed: createRunFailedHook(stageDeps),
              concurrency: worker.concurrency,
              ...(worker.rateLimit ? { rateLimit: worker.rateLimit } : {}),
              lockDurationMs: worker.lockDurationMs,
              stalledIntervalMs: worker.stalledIntervalMs,
            },
          }
        : {}),
    });
    stopOnSignals(
      () => app.stop(worker.shutdownDeadlineMs),
      (msg) => log.info(msg),
    );
  });
}
