import { createRedactor } from '../../artifacts/redact.js';
import { assertAppPrivateKey } from '../../config/app-private-key.js';
import { missingFor, withoutSecrets } from '../../config/env.js';
import { readEnvironment } from '../../config/read-environment.js';
import { scrubSecrets } from '../../config/scrub-secrets.js';
import { AutofixError } from '../../errors.js';
import { createLogger } from '../../logger.js';
import { createRunFailedHook } from '../../hosts/app/stages/run-failed-hook.js';
import { createStageProcessors } from '../../hosts/app/stages/stage-processors.js';
import { checkRedis } from '../../scheduler/check-redis.js';
import { createMetrics } from '../../scheduler/metrics.js';
import { startWorkerProcess } from '../../hosts/app/start-worker-process.js';
import type { WorkerFlags } from '../commands/worker-flags.js';
import { sandboxAtStart } from '../sandbox-at-start.js';
import { readWorkerFlags, stopOnSignals, warnWithoutLlm } from './worker-runtime.js';

export async function worker(flags: WorkerFlags & { metricsPort?: string }): Promise<void> {
  const read = readEnvironment(process.env);
  // From here on the secrets live in `settings` only: no child process can inherit them, and
  // /proc/<pid>/environ no longer shows them (or the process stopped).
  scrubSecrets(process.env, read.secrets);
  // Workers never check a webhook signature nor serve the admin pages.
  const settings = withoutSecrets(read, 'webhookSecret', 'adminPassword');
  const redact = createRedactor(settings.secrets);
  const log = createLogger({ level: settings.logLevel, redact });
  const options = readWorkerFlags(flags);
  // Workers mint installation tokens; they never see webhooks, so no WEBHOOK_SECRET.
  const missing = missingFor(settings, 'github').filter((v) => v !== 'WEBHOOK_SECRET');
  if (missing.length > 0 || !settings.appId || !settings.privateKey) {
    throw new AutofixError('CONFIG_INVALID', `Missing environment: set ${missing.join(', ')}.`, {
      details: { missing },
    });
  }
  assertAppPrivateKey(settings);
  await checkRedis(settings.redisUrl);
  warnWithoutLlm(settings, log);
  const metrics = createMetrics({ defaultMetrics: true });
  // Repository code runs only in a sandbox that proved itself (or where the operator said none).
  const sandbox = await sandboxAtStart(settings, log, {
    ...(flags.metricsPort === undefined ? {} : { extraPorts: [Number(flags.metricsPort)] }),
  });
  const stageDeps = { settings, log, metrics, redact, sandbox };
  const proc = await startWorkerProcess({
    github: {
      appId: settings.appId,
      privateKey: settings.privateKey,
      apiUrl: settings.githubApiUrl,
    },
    redisUrl: settings.redisUrl,
    prefix: options.prefix,
    log,
    redact,
    metrics,
    workers: {
      processors: createStageProcessors(stageDeps),
      onRunFailed: createRunFailedHook(stageDeps),
      concurrency: options.concurrency,
      ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
      lockDurationMs: options.lockDurationMs,
      stalledIntervalMs: options.stalledIntervalMs,
      parkTtlMs: settings.parkedRunTtlMs,
      costCaps: settings.costCaps,
    },
    ...(flags.metricsPort === undefined ? {} : { metricsPort: Number(flags.metricsPort) }),
    ...(settings.host ? { host: settings.host } : {}),
  });
  log.info(
    `workers running (queue prefix ${options.prefix})${proc.metricsUrl ? `; metrics at ${proc.metricsUrl}` : ''}`,
  );
  stopOnSignals(
    () => proc.stop(options.shutdownDeadlineMs),
    (msg) => log.info(msg),
  );
}
