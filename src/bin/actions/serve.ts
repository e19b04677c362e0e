import { createRedactor } from '../../artifacts/redact.js';
import { loadDotEnv } from '../../config/dotenv.js';
import { givenAppCredentials, missingFor, readSettings, withoutSecrets } from '../../config/env.js';
import { scrubSecrets } from '../../config/scrub-secrets.js';
import { AutofixError } from '../../errors.js';
import { createLogger } from '../../logger.js';
import { createRunFailedHook } from '../../worker/run-failed-hook.js';
import { createStageProcessors } from '../../worker/stage-processors.js';
import { checkRedis } from '../../queue/check-redis.js';
import { createMetrics } from '../../queue/metrics.js';
import { healthz } from '../../server/healthz.js';
import { startSetupServer } from '../../server/setup-mode.js';
import { startAutofix } from '../../server/start-autofix.js';
import type { WorkerFlags } from '../commands/worker-flags.js';
import { sandboxAtStart } from '../sandbox-at-start.js';
import { readWorkerFlags, stopOnSignals } from './worker-runtime.js';

/** `A`, `A and B`, `A, B and C`; an alternative `X or Y` reads `X (or Y)`. */
function listed(names: string[]): string {
  const items = names.map((n) => n.replace(/^(\S+) or (\S+)$/, '$1 (or $2)'));
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : items.join('');
}

export async function serve(flags: WorkerFlags & { workers: boolean }): Promise<void> {
  loadDotEnv('.env', process.env);
  const read = readSettings(process.env);
  // From here on the secrets live in `settings` only: no child process can inherit them, and
  // /proc/<pid>/environ no longer shows them (or the process stopped).
  scrubSecrets(process.env, read.secrets);
  // Without workers, no LLM call is made here.
  const settings = flags.workers ? read : withoutSecrets(read, 'openaiApiKey');
  const redact = createRedactor(settings.secrets);
  const log = createLogger({ level: settings.logLevel, redact });
  const worker = readWorkerFlags(flags);
  // Setup mode only when no credential at all is set: a partial set is a mistake to name.
  const given = givenAppCredentials(settings);
  const missing = missingFor(settings, 'github');
  if (given.length > 0 && missing.length > 0) {
    throw new AutofixError(
      'CONFIG_INVALID',
      `Incomplete GitHub App credentials: ${listed(given)} ${given.length > 1 ? 'are' : 'is'} set, ` +
        `but ${listed(missing)} ${missing.length > 1 ? 'are' : 'is'} missing. Set ` +
        `${missing.length > 1 ? 'them' : 'it'}, or unset ${listed(given)} to register a new app ` +
        'on the setup page.',
      { details: { missing } },
    );
  }
  // Refuse to start before anything else when Redis is away or evicts keys.
  await checkRedis(settings.redisUrl);
  const host = settings.host ?? '0.0.0.0';
  // Past the check above, a missing credential means none is set.
  if (!settings.appId || !settings.privateKey || !settings.webhookSecret) {
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
  const metrics = createMetrics({ defaultMetrics: true });
  // Repository code runs only in a sandbox that proved itself (or where the operator said none).
  const sandbox = flags.workers ? await sandboxAtStart(settings, log) : undefined;
  const stageDeps = { settings, log, metrics, redact, ...(sandbox ? { sandbox } : {}) };
  const app = await startAutofix({
    github: {
      appId: settings.appId,
      privateKey: settings.privateKey,
      webhookSecret: settings.webhookSecret,
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
}
