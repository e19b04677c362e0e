/**
 * `autofix serve` as a function (tests and benchmarks call it too): Probot's server with the
 * webhook handlers, /healthz, /readyz, /metrics, Bull Board, the run pages at `/runs/<id>`, the
 * status page at `/`, the WEBHOOK_PROXY_URL relay when set, and the stage workers unless disabled.
 */
import type { Server as HttpServer } from 'node:http';
import { Server } from 'probot';
import type { Redactor } from '../../artifacts/redact.js';
import { webhookProxyUrl } from '../../config/webhook-proxy.js';
import { createApp } from '../../index.js';
import type { HttpHandler } from '../../http-handler.js';
import type { Logger } from '../../logger.js';
import { createInstallationAuth } from '../../github/installation-auth.js';
import { startAdmissionWorker, type AdmissionWorker } from '../../intake/admission-worker.js';
import { createRunIntake } from '../../intake/run-intake.js';
import { createTriggerIntake } from '../../intake/trigger-intake.js';
import { createAdmission } from '../../intake/admit-trigger.js';
import { createInstallationLifecycle } from '../../intake/installation-gone.js';
import { createAppIdentity, type AppIdentity } from '../../intake/app-identity.js';
import { createDeliveryActivity, type DeliveryActivity } from '../../intake/deliveries-first.js';
import { createPermissionChecker } from '../../intake/permission-checker.js';
import { createRepoConfigLoader, type RepoConfigLoader } from '../../intake/repo-config-loader.js';
import type { AppMetrics } from '../../scheduler/metrics.js';
import type { RetryPolicy } from '../../scheduler/stage-queues.js';
import { STAGES } from '../../runs/types.js';
import type { WorkerPool } from '../../scheduler/worker-pool.js';
import { adminQueues } from './admin-queues.js';
import {
  DEFAULT_RECONCILE_INTERVAL_MS,
  startDeliveryReconciler,
  type DeliveryReconciler,
} from './delivery-reconciler.js';
import { answerHeadLikeGet } from './head-like-get.js';
import { healthz } from './healthz.js';
import { readinessProbe, readyz } from './readyz.js';
import { metricsEndpoint } from './metrics-endpoint.js';
import { freePort } from './free-port.js';
import { limitWebhookBody } from './limit-webhook-body.js';
import { listenError } from './listen-error.js';
import { logRedisCheck } from './log-redis-check.js';
import { probotClass, type GitHubAppCredentials } from './probot-class.js';
import { probotServerLog } from './server-log.js';
import { openQueueBackend, type QueueBackend } from './queue-backend.js';
import { WEBHOOK_PATH } from './setup-page.js';
import { createWebhookActivity, statusPage, type WebhookActivity } from './status-page.js';
import { runPageRoute } from './run-page/run-page-route.js';
import { runPageLinksOf, runPageVerifier } from './run-page/run-page-links-of.js';
import type { RunPageLinks } from '../../runs/run-page-link.js';
import { relayTarget, startWebhookRelay, type WebhookRelay } from './webhook-relay.js';
import { stageWorkspacesClosed, startWorkers, type WorkerSettings } from './worker-runtime.js';

export interface AutofixServerOptions {
  github: GitHubAppCredentials & { webhookSecret: string };
  redisUrl: string;
  /** Key prefix of every queue and bookkeeping key (one Redis can host several deployments). */
  prefix: string;
  host: string;
  /** 0 = any free port. */
  port: number;
  adminPassword?: string;
  log: Logger;
  redact: Redactor;
  metrics: AppMetrics;
  retry?: RetryPolicy;
  /** Retries of a trigger's admission (GitHub calls); default DEFAULT_ADMISSION_RETRY. */
  admissionRetry?: RetryPolicy;
  /** Longest wait on Redis before a webhook is answered 503 (default 3 s). */
  intakeTimeoutMs?: number;
  configCacheMs?: number;
  permissionCacheMs?: number;
  /** Lock and stalled-check interval of the admission worker (serve's `--stalled-after`). */
  admissionStalled?: { lockDurationMs: number; stalledIntervalMs: number };
  /** Stage workers in this process; undefined = webhooks only (`--no-workers`). */
  workers?: WorkerSettings;
  /** Largest webhook body read; larger ones get 413 (default 25 MB, GitHub's own cap). */
  maxWebhookBytes?: number;
  /** Missed-delivery reconciler: a pass on start, then one every so often (5 min; 0 = off). */
  reconcileIntervalMs?: number;
  /**
   * A smee.io-style channel to relay webhooks from (local development); undefined = the
   * WEBHOOK_PROXY_URL environment variable (or `.env`), null = none.
   */
  webhookProxyUrl?: string | null;
  /**
   * PUBLIC_URL: how people reach this server. With it, this process's workers print each run's
   * page link (signed with a key derived from the webhook secret); `/runs/<id>` checks such links
   * either way, and ADMIN_PASSWORD opens any run page.
   */
  publicUrl?: string;
}

export interface AutofixServer {
  url: string;
  port: number;
  backend: QueueBackend;
  pool?: WorkerPool;
  /** Stops taking webhooks, then closes the workers within the deadline, then Redis. */
  stop(deadlineMs?: number): Promise<{ forced: boolean }>;
}

/** The App's Probot class, with its credentials and our Octokit defaults (probot-class.ts). */
type ProbotClass = ReturnType<typeof probotClass>;

/** What the server's parts share as it starts. */
interface Startup {
  options: AutofixServerOptions;
  backend: QueueBackend;
  ProbotWithDefaults: ProbotClass;
  appProbot: InstanceType<ProbotClass>;
  identity: AppIdentity;
  /** Verified deliveries, for the status page. */
  activity: WebhookActivity;
  /** Deliveries being answered: admission waits for a quiet moment (deliveries-first.ts). */
  deliveries: DeliveryActivity;
  /** One config cache for admission and the webhooks' early filter (peek). */
  configs: RepoConfigLoader;
  proxyUrl: string | undefined;
}

/** Stage and admission workers: they start after the server; readiness looks them up when asked. */
interface StartedWorkers {
  pool?: WorkerPool;
  admission?: AdmissionWorker;
}

/** What stop() closes, in its order. */
interface Running {
  reconciler: DeliveryReconciler | undefined;
  relay: WebhookRelay | undefined;
  server: Server;
  http: HttpServer;
  pool: WorkerPool | undefined;
  admission: AdmissionWorker;
  deliveries: DeliveryActivity;
  backend: QueueBackend;
}

export async function startAutofix(options: AutofixServerOptions): Promise<AutofixServer> {
  const s = await prepare(options);
  const started: StartedWorkers = {};
  // Nothing else starts before the server listens: a busy PORT ends the start with its cause.
  const { server, http } = await startWebServer(s, httpHandlers(s, started)).catch(
    async (err: unknown) => {
      await s.backend.close();
      throw err;
    },
  );
  const relay = s.proxyUrl
    ? startWebhookRelay({
        source: s.proxyUrl,
        target: relayTarget(server.host, server.port, WEBHOOK_PATH),
        log: options.log,
      })
    : undefined;
  const reconciler = startReconciler(s);
  // Admission runs where webhooks arrive (also with --no-workers): it is part of intake.
  const admission = startAdmission(s);
  started.admission = admission;
  const pool = startStageWorkers(s);
  if (pool) started.pool = pool;
  else options.log.info('--no-workers: this process only takes webhooks');

  const running: Running = {
    reconciler,
    relay,
    server,
    http,
    pool,
    admission,
    deliveries: s.deliveries,
    backend: s.backend,
  };
  let stopping: Promise<{ forced: boolean }> | undefined;
  return {
    url: `http://${server.host}:${server.port}`,
    port: server.port,
    backend: s.backend,
    ...(pool ? { pool } : {}),
    stop(deadlineMs = 30_000) {
      stopping ??= stopAll(running, deadlineMs, options.log);
      return stopping;
    },
  };
}

/** Redis, the App's Probot class and identity, and what the webhooks and admission share. */
async function prepare(options: AutofixServerOptions): Promise<Startup> {
  const backend = await openQueueBackend({
    redisUrl: options.redisUrl,
    prefix: options.prefix,
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.admissionRetry ? { admissionRetry: options.admissionRetry } : {}),
  });
  logRedisCheck(backend.check, options.redisUrl, options.log);
  const ProbotWithDefaults = probotClass(options.github, options.log);
  const appProbot = new ProbotWithDefaults();
  return {
    options,
    backend,
    ProbotWithDefaults,
    appProbot,
    identity: createAppIdentity(() => appProbot.auth()),
    activity: createWebhookActivity(),
    deliveries: createDeliveryActivity(),
    configs: createRepoConfigLoader({ ttlMs: options.configCacheMs }),
    proxyUrl:
      options.webhookProxyUrl === undefined
        ? webhookProxyUrl()
        : (options.webhookProxyUrl ?? undefined),
  };
}

/** /healthz, /readyz, /metrics, Bull Board (with a password) and the status page at `/`. */
function httpHandlers(s: Startup, started: StartedWorkers): HttpHandler[] {
  const { options, backend } = s;
  const handlers: HttpHandler[] = [
    healthz,
    readyz(
      readinessProbe(backend.redis, () => [
        ...(started.admission ? [started.admission.worker] : []),
        ...Object.values(started.pool?.workers ?? {}),
      ]),
    ),
    metricsEndpoint(options.metrics.registry),
  ];
  const admin = adminQueues({
    queues: [backend.triggers, ...STAGES.map((stage) => backend.queues[stage])],
    password: options.adminPassword,
  });
  handlers.push(
    runPageRoute({
      runs: backend.runs,
      links: runPageVerifier(options.github.webhookSecret),
      password: options.adminPassword,
      redact: options.redact,
    }),
  );
  if (admin) handlers.push(admin);
  else options.log.info('ADMIN_PASSWORD is not set: Bull Board (/admin/queues) is disabled');
  handlers.push(
    statusPage({
      appName: () => s.identity.slug(),
      fallbackName: `GitHub App ${options.github.appId}`,
      activity: s.activity,
      triggers: backend.triggers,
      queues: backend.queues,
      runs: backend.runs,
      outcomes: backend.outcomes,
      password: options.adminPassword,
      ...(s.proxyUrl ? { relay: new URL(s.proxyUrl).origin } : {}),
    }),
  );
  return handlers;
}

/** Probot's server with our handlers and the webhooks, listening. */
async function startWebServer(
  s: Startup,
  handlers: HttpHandler[],
): Promise<{ server: Server; http: HttpServer }> {
  const { options } = s;
  const port = options.port === 0 ? await freePort(options.host) : options.port;
  const server = new Server({
    host: options.host,
    port,
    log: probotServerLog(options.log) as never,
    Probot: limitWebhookBody(
      probotClass(options.github, options.log, { webhooksOnly: true }),
      options.maxWebhookBytes,
      s.deliveries,
    ),
  });
  await server.load(
    createApp({
      handlers,
      triggers: createTriggerIntake({
        queue: s.backend.triggers,
        ...(options.intakeTimeoutMs ? { timeoutMs: options.intakeTimeoutMs } : {}),
      }),
      configs: s.configs,
      lifecycle: createInstallationLifecycle({
        queues: s.backend.queues,
        triggers: s.backend.triggers,
        registry: s.backend.registry,
        runs: s.backend.runs,
        ...(options.intakeTimeoutMs ? { timeoutMs: options.intakeTimeoutMs } : {}),
      }),
      outcomes: s.backend.outcomes,
      metrics: options.metrics,
    }),
  );
  // Verified deliveries only (Probot checked the signature), for the status page.
  await server.load((app) => app.onAny((context) => s.activity.record(context.name)));
  const http: HttpServer = await server.start().catch((err: unknown) => {
    throw listenError(err, { host: options.host, port, setting: 'PORT' });
  });
  answerHeadLikeGet(http);
  options.log.info(
    `Autofix listening on http://${server.host}:${server.port} (webhooks at ${WEBHOOK_PATH})`,
  );
  return { server, http };
}

/** Asks GitHub to redeliver what failed while we were down (App JWT: an app-level Octokit). */
function startReconciler({
  options,
  backend,
  ProbotWithDefaults,
}: Startup): DeliveryReconciler | undefined {
  if (options.reconcileIntervalMs === 0) return undefined;
  return startDeliveryReconciler({
    intervalMs: options.reconcileIntervalMs ?? DEFAULT_RECONCILE_INTERVAL_MS,
    octokit: () => new ProbotWithDefaults().auth(),
    redis: backend.redis,
    prefix: options.prefix,
    log: options.log,
    metrics: options.metrics,
  });
}

function startAdmission(s: Startup): AdmissionWorker {
  const { options, backend } = s;
  const { log, metrics } = options;
  return startAdmissionWorker({
    redisUrl: options.redisUrl,
    prefix: options.prefix,
    auth: createInstallationAuth(s.appProbot, (token) => options.redact.add(token)),
    gone: backend.registry,
    admit: createAdmission({
      intake: createRunIntake({
        queues: backend.queues,
        registry: backend.registry,
        runs: backend.runs,
        log,
      }),
      configs: s.configs,
      permissions: createPermissionChecker({ ttlMs: options.permissionCacheMs }),
      identity: s.identity,
      locks: backend.registry,
      outcomes: backend.outcomes,
      metrics,
    }),
    log,
    metrics,
    yieldTo: s.deliveries.quiet,
    ...options.admissionStalled,
  });
}

/** The stage workers, unless this process only takes webhooks (`--no-workers`). */
function startStageWorkers({
  options,
  backend,
  ProbotWithDefaults,
}: Startup): WorkerPool | undefined {
  if (!options.workers) return undefined;
  return startWorkers({
    backend,
    redisUrl: options.redisUrl,
    prefix: options.prefix,
    probot: new ProbotWithDefaults(),
    log: options.log,
    metrics: options.metrics,
    redact: options.redact,
    settings: { ...options.workers, ...printedLinks(options) },
  });
}

/** The run page's links this process's workers print (none without PUBLIC_URL). */
function printedLinks(options: AutofixServerOptions): { runPage?: RunPageLinks } {
  const runPage = runPageLinksOf({
    publicUrl: options.publicUrl,
    webhookSecret: options.github.webhookSecret,
  });
  return runPage ? { runPage } : {};
}

/** Stops taking webhooks, then closes the workers within the deadline, then Redis. */
async function stopAll(r: Running, deadlineMs: number, log: Logger): Promise<{ forced: boolean }> {
  await r.reconciler?.stop();
  await r.relay?.stop();
  const closed = r.server.stop();
  r.http.closeIdleConnections();
  r.deliveries.release(); // admissions waiting for a quiet moment go now
  const [result] = await Promise.all([
    r.pool ? r.pool.close(deadlineMs) : { forced: false },
    r.admission.close(Math.min(deadlineMs, 5000)),
  ]);
  // Stages close their workspaces in the background: none is left half-removed.
  await stageWorkspacesClosed(log);
  r.http.closeAllConnections();
  await closed;
  await r.backend.close();
  return result;
}
