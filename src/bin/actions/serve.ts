import { createRedactor, type Redactor } from '../../artifacts/redact.js';
import { assertAppPrivateKey } from '../../config/app-private-key.js';
import {
  givenAppCredentials,
  missingFor,
  withoutSecrets,
  type Settings,
} from '../../config/env.js';
import { readEnvironment } from '../../config/read-environment.js';
import { scrubSecrets } from '../../config/scrub-secrets.js';
import { webhookProxyUrl } from '../../config/webhook-proxy.js';
import { AutofixError } from '../../errors.js';
import { createLogger, type Logger } from '../../logger.js';
import { createRunFailedHook } from '../../hosts/app/stages/run-failed-hook.js';
import { createStageProcessors } from '../../hosts/app/stages/stage-processors.js';
import { checkRedis } from '../../scheduler/check-redis.js';
import { createMetrics, type AppMetrics } from '../../scheduler/metrics.js';
import { healthz } from '../../hosts/app/healthz.js';
import { startSetupServer } from '../../hosts/app/setup-mode.js';
import {
  startAutofix,
  type AutofixServer,
  type AutofixServerOptions,
} from '../../hosts/app/start-autofix.js';
import type { WorkerFlags } from '../commands/worker-flags.js';
import { sandboxAtStart } from '../sandbox-at-start.js';
import { readWorkerFlags, stopOnSignals, warnWithoutLlm } from './worker-runtime.js';

/** What `serve` read at start, for the steps after it. */
interface ServeRuntime {
  settings: Settings;
  log: Logger;
  redact: Redactor;
  worker: ReturnType<typeof readWorkerFlags>;
  host: string;
}

/** `A`, `A and B`, `A, B and C`; an alternative `X or Y` reads `X (or Y)`. */
function listed(names: string[]): string {
  const items = names.map((n) => n.replace(/^(\S+) or (\S+)$/, '$1 (or $2)'));
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : items.join('');
}

/** Setup mode only when no credential at all is set: a partial set is a mistake to name. */
function assertCompleteCredentials(settings: Settings): void {
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
}

/** No credentials yet: the setup page registers the app from app.yml. */
async function serveSetupPage(rt: ServeRuntime): Promise<void> {
  const server = await startSetupServer({
    host: rt.host,
    port: rt.settings.port,
    log: rt.log,
    handlers: [healthz],
    envFile: rt.settings.envFile,
  });
  // The one start-up line of setup mode (Probot's banner is turned off: setup-mode.ts).
  const host = ['0.0.0.0', '::', '[::]'].includes(server.host) ? 'localhost' : server.host;
  const tunnel = webhookProxyUrl()
    ? ''
    : ' GitHub must reach this server to deliver webhooks: for local development set ' +
      'WEBHOOK_PROXY_URL (README: "Local development: webhook tunnel") before registering the app.';
  rt.log.info(
    `No GitHub App credentials yet: open http://${host}:${server.port} to register Autofix from app.yml ` +
      `(the credentials are written to ${rt.settings.envFile}).${tunnel}`,
  );
}

/** The stage workers in this process (`--workers`). */
async function stageWorkers(
  rt: ServeRuntime,
  metrics: AppMetrics,
): Promise<NonNullable<AutofixServerOptions['workers']>> {
  const { settings, log, redact, worker } = rt;
  warnWithoutLlm(settings, log);
  // Repository code runs only in a sandbox that proved itself (or where the operator said none).
  const sandbox = await sandboxAtStart(settings, log);
  const stageDeps = { settings, log, metrics, redact, sandbox };
  return {
    processors: createStageProcessors(stageDeps),
    onRunFailed: createRunFailedHook(stageDeps),
    concurrency: worker.concurrency,
    ...(worker.rateLimit ? { rateLimit: worker.rateLimit } : {}),
    lockDurationMs: worker.lockDurationMs,
    stalledIntervalMs: worker.stalledIntervalMs,
    parkTtlMs: settings.parkedRunTtlMs,
    costCaps: settings.costCaps,
  };
}

/** The app: webhooks, admin pages and, with `--workers`, the stage workers. */
async function startApp(
  rt: ServeRuntime,
  github: AutofixServerOptions['github'],
  withWorkers: boolean,
): Promise<AutofixServer> {
  const { settings, log, redact, worker } = rt;
  const metrics = createMetrics({ defaultMetrics: true });
  const workers = withWorkers ? await stageWorkers(rt, metrics) : undefined;
  return startAutofix({
    github,
    redisUrl: settings.redisUrl,
    prefix: worker.prefix,
    host: rt.host,
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
    ...(workers ? { workers } : {}),
  });
}

export async function serve(flags: WorkerFlags & { workers: boolean }): Promise<void> {
  const read = readEnvironment(process.env);
  // From here on the secrets live in `settings` only: no child process can inherit them, and
  // /proc/<pid>/environ no longer shows them (or the process stopped).
  scrubSecrets(process.env, read.secrets);
  // Without workers, no LLM call is made here.
  const settings = flags.workers ? read : withoutSecrets(read, 'openaiApiKey');
  const redact = createRedactor(settings.secrets);
  const log = createLogger({ level: settings.logLevel, redact });
  const worker = readWorkerFlags(flags);
  assertCompleteCredentials(settings);
  assertAppPrivateKey(settings);
  // Refuse to start before anything else when Redis is away or evicts keys.
  await checkRedis(settings.redisUrl);
  const rt = { settings, log, redact, worker, host: settings.host ?? '0.0.0.0' };
  const { appId, privateKey, webhookSecret } = settings;
  // Past the check above, a missing credential means none is set.
  if (!appId || !privateKey || !webhookSecret) return serveSetupPage(rt);
  const github = { appId, privateKey, webhookSecret, apiUrl: settings.githubApiUrl };
  const app = await startApp(rt, github, flags.workers);
  stopOnSignals(
    () => app.stop(worker.shutdownDeadlineMs),
    (msg) => log.info(msg),
  );
}
