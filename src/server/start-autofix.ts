/**
 * `autofix serve` as a function (tests and benchmarks call it too): Probot's server with the
 * webhook handlers, /healthz, /readyz, /metrics, Bull Board, the status page at `/`, the
 * WEBHOOK_PROXY_URL relay when set, and the stage workers unless disabled.
 */
import type { Server as HttpServer } from 'node:http';
import { Server } from 'probot';
import type { Redactor } from '../artifacts/redact.js';
import { webhookProxyUrl } from '../config/webhook-proxy.js';
import { createApp } from '../index.js';
import type { HttpHandler } from '../http-handler.js';
import type { Logger } from '../logger.js';
import { createInstallationAuth } from '../github/installation-auth.js';
import { startAdmissionWorker, type AdmissionWorker } from '../queue/admission-worker.js';
import { createRunIntake } from '../queue/intake.js';
import { createTriggerIntake } from '../queue/trigger-intake.js';
import { createAdmission } from '../webhooks/admit-trigger.js';
import { createAppIdentity } from '../webhooks/app-identity.js';
import { createPermissionChecker } from '../webhooks/permission-checker.js';
import { createRepoConfigLoader } from '../webhooks/repo-config-loader.js';
import type { AppMetrics } from '../queue/metrics.js';
import type { RetryPolicy } from '../queue/stage-queues.js';
import { STAGES } from '../queue/types.js';
import type { WorkerPool } from '../queue/worker-pool.js';
import { adminQueues } from './admin-queues.js';
import { DEFAULT_RECONCILE_INTERVAL_MS, startDeliveryReconciler } from './delivery-reconciler.js';
import { healthz } from './healthz.js';
import { readinessProbe, readyz } from './readyz.js';
import { metricsEndpoint } from './metrics-endpoint.js';
import { freePort } from './free-port.js';
import { limitWebhookBody } from './limit-webhook-body.js';
import { logRedisCheck } from './log-redis-check.js';
import { probotClass, type GitHubAppCredentials } from './probot-class.js';
import { openQueueBackend, type QueueBackend } from './queue-backend.js';
import { WEBHOOK_PATH } from './setup-page.js';
import { createWebhookActivity, statusPage } from './status-page.js';
import { relayTarget, startWebhookRelay } from './webhook-relay.js';
import { startWorkers, type WorkerSettings } from './worker-runtime.js';

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
}

export interface AutofixServer {
  url: string;
  port: number;
  backend: QueueBackend;
  pool?: WorkerPool;
  /** Stops taking webhooks, then closes the workers within the deadline, then Redis. */
  stop(deadlineMs?: number): Promise<{ forced: boolean }>;
}

export async function startAutofix(options: AutofixServerOptions): Promise<AutofixServer> {
  const { log, metrics } = options;
  const backend = await openQueueBackend({
    redisUrl: options.redisUrl,
    prefix: options.prefix,
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.admissionRetry ? { admissionRetry: options.admissionRetry } : {}),
  });
  logRedisCheck(backend.check, options.redisUrl, log);
  const ProbotWithDefaults = probotClass(options.github, log);
  const appProbot = new ProbotWithDefaults();
  const identity = createAppIdentity(() => appProbot.auth());
  const activity = createWebhookActivity();
  const proxyUrl =
    options.webhookProxyUrl === undefined
      ? webhookProxyUrl()
      : (options.webhookProxyUrl ?? undefined);
  // The workers start after the server; readiness looks them up when asked.
  const started: { pool?: WorkerPool; admission?: AdmissionWorker } = {};
  const handlers: HttpHandler[] = [
    healthz,
    readyz(
      readinessProbe(backend.redis, () => [
        ...(started.admission ? [started.admission.worker] : []),
        ...Object.values(started.pool?.workers ?? {}),
      ]),
    ),
    metricsEndpoint(metrics.registry),
  ];
  const admin = adminQueues({
    queues: [backend.triggers, ...STAGES.map((s) => backend.queues[s])],
    password: options.adminPassword,
  });
  if (admin) handlers.push(admin);
  else log.info('ADMIN_PASSWORD is not set: Bull Board (/admin/queues) is disabled');
  handlers.push(
    statusPage({
      appName: () => identity.slug(),
      fallbackName: `GitHub App ${options.github.appId}`,
      activity,
      triggers: backend.triggers,
      queues: backend.queues,
      registry: backend.registry,
      password: options.adminPassword,
      ...(proxyUrl ? { relay: new URL(proxyUrl).origin } : {}),
    }),
  );

  const server = new Server({
    host: options.host,
    port: options.port === 0 ? await freePort(options.host) : options.port,
    log: log as never,
    Probot: limitWebhookBody(ProbotWithDefaults, options.maxWebhookBytes),
  });
  // One config cache for admission and the webhooks' early filter (peek).
  const configs = createRepoConfigLoader({ ttlMs: options.configCacheMs });
  await server.load(
    createApp({
      handlers,
      triggers: createTriggerIntake({
        queue: backend.triggers,
        ...(options.intakeTimeoutMs ? { timeoutMs: options.intakeTimeoutMs } : {}),
      }),
      configs,
      metrics,
    }),
  );
  // Verified deliveries only (Probot checked the signature), for the status page.
  await server.load((app) => app.onAny((context) => activity.record(context.name)));
  const http: HttpServer = await server.start();
  const relay = proxyUrl
    ? startWebhookRelay({
        source: proxyUrl,
        target: relayTarget(server.host, server.port, WEBHOOK_PATH),
        log,
      })
    : undefined;
  // Asks GitHub to redeliver what failed while we were down (App JWT: an app-level Octokit).
  const reconciler =
    options.reconcileIntervalMs === 0
      ? undefined
      : startDeliveryReconciler({
          intervalMs: options.reconcileIntervalMs ?? DEFAULT_RECONCILE_INTERVAL_MS,
          octokit: () => new ProbotWithDefaults().auth(),
          redis: backend.redis,
          prefix: options.prefix,
          log,
          metrics,
        });

  // Admission runs where webhooks arrive (also with --no-workers): it is part of intake.
  started.admission = startAdmissionWorker({
    redisUrl: options.redisUrl,
    prefix: options.prefix,
    auth: createInstallationAuth(appProbot, (token) => options.redact.add(token)),
    admit: createAdmission({
      intake: createRunIntake({ queues: backend.queues, registry: backend.registry, log }),
      configs,
      permissions: createPermissionChecker({ ttlMs: options.permissionCacheMs }),
      identity,
      locks: backend.registry,
      metrics,
    }),
    log,
    metrics,
    ...options.admissionStalled,
  });
  const admission = started.admission;

  const pool = options.workers
    ? startWorkers({
        backend,
        redisUrl: options.redisUrl,
        prefix: options.prefix,
        probot: new ProbotWithDefaults(),
        log,
        metrics,
        redact: options.redact,
        settings: options.workers,
      })
    : undefined;
  if (pool) started.pool = pool;
  else log.info('--no-workers: this process only takes webhooks');

  let stopping: Promise<{ forced: boolean }> | undefined;
  return {
    url: `http://${server.host}:${server.port}`,
    port: server.port,
    backend,
    ...(pool ? { pool } : {}),
    stop(deadlineMs = 30_000) {
      stopping ??= (async () => {
        await reconciler?.stop();
        await relay?.stop();
        const closed = server.stop();
        http.closeIdleConnections();
        const [result] = await Promise.all([
          pool ? pool.close(deadlineMs) : { forced: false },
          admission.close(Math.min(deadlineMs, 5000)),
        ]);
        http.closeAllConnections();
        await closed;
        await backend.close();
        return result;
      })();
      return stopping;
    },
  };
}
