/**
 * `autofix worker` as a function: stage workers only (run many against one Redis to scale out),
 * with an optional small HTTP server for /healthz and /metrics.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { Worker } from 'bullmq';
import type { Redactor } from '../../artifacts/redact.js';
import type { HttpHandler } from '../../http-handler.js';
import type { Logger } from '../../logger.js';
import type { AppMetrics } from '../../scheduler/metrics.js';
import type { RetryPolicy } from '../../scheduler/stage-queues.js';
import type { WorkerPool } from '../../scheduler/worker-pool.js';
import { answerHeadLikeGet } from './head-like-get.js';
import { healthz } from './healthz.js';
import { readinessProbe, readyz } from './readyz.js';
import { listenError } from './listen-error.js';
import { logRedisCheck } from './log-redis-check.js';
import { metricsEndpoint } from './metrics-endpoint.js';
import { probotClass, type GitHubAppCredentials } from './probot-class.js';
import { openQueueBackend, type QueueBackend } from './queue-backend.js';
import { stageWorkspacesClosed, startWorkers, type WorkerSettings } from './worker-runtime.js';

export interface WorkerProcess {
  backend: QueueBackend;
  pool: WorkerPool;
  metricsUrl?: string;
  stop(deadlineMs?: number): Promise<{ forced: boolean }>;
}

function serveHandlers(handlers: HttpHandler[], host: string, port: number): Promise<HttpServer> {
  const server = createServer((req, res) => {
    void (async () => {
      for (const handler of handlers) if (await handler(req, res)) return;
      res.writeHead(404).end();
    })().catch(() => res.writeHead(500).end());
  });
  answerHeadLikeGet(server);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

export interface WorkerProcessOptions {
  github: GitHubAppCredentials;
  redisUrl: string;
  prefix: string;
  log: Logger;
  redact: Redactor;
  metrics: AppMetrics;
  retry?: RetryPolicy;
  workers: WorkerSettings;
  /** Serve /healthz, /readyz and /metrics on this port (0 = any free port); undefined = no HTTP. */
  metricsPort?: number;
  host?: string;
}

/** /healthz, /readyz and /metrics on `--metrics-port`, when asked; Redis is closed if it cannot listen. */
async function metricsServer(
  options: WorkerProcessOptions,
  backend: QueueBackend,
  workers: () => Worker[],
): Promise<HttpServer | undefined> {
  if (options.metricsPort === undefined) return undefined;
  const host = options.host ?? '0.0.0.0';
  const handlers = [
    healthz,
    readyz(readinessProbe(backend.redis, workers)),
    metricsEndpoint(options.metrics.registry),
  ];
  try {
    return await serveHandlers(handlers, host, options.metricsPort);
  } catch (err) {
    await backend.close();
    throw listenError(err, { host, port: options.metricsPort, setting: '--metrics-port' });
  }
}

export async function startWorkerProcess(options: WorkerProcessOptions): Promise<WorkerProcess> {
  const { log, metrics } = options;
  const backend = await openQueueBackend({
    redisUrl: options.redisUrl,
    prefix: options.prefix,
    ...(options.retry ? { retry: options.retry } : {}),
  });
  logRedisCheck(backend.check, options.redisUrl, log);
  const started: { pool?: WorkerPool } = {};
  // Listen before any job is taken: a busy --metrics-port ends the start with its cause.
  const http = await metricsServer(options, backend, () =>
    Object.values(started.pool?.workers ?? {}),
  );
  const ProbotWithDefaults = probotClass(options.github, log);
  const pool = startWorkers({
    backend,
    redisUrl: options.redisUrl,
    prefix: options.prefix,
    probot: new ProbotWithDefaults(),
    log,
    metrics,
    redact: options.redact,
    settings: options.workers,
  });
  started.pool = pool;
  const address = http?.address();
  let stopping: Promise<{ forced: boolean }> | undefined;
  return {
    backend,
    pool,
    ...(address && typeof address === 'object'
      ? { metricsUrl: `http://${address.address}:${address.port}/metrics` }
      : {}),
    stop(deadlineMs = 30_000) {
      stopping ??= (async () => {
        const result = await pool.close(deadlineMs);
        // Stages close their workspaces in the background: none is left half-removed.
        await stageWorkspacesClosed(options.log);
        http?.closeAllConnections();
        await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
        await backend.close();
        return result;
      })();
      return stopping;
    },
  };
}
