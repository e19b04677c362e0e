/** Starts the stage workers of one process (in `serve` or `worker`). */
import type { Probot } from 'probot';
import type { Redactor } from '../../artifacts/redact.js';
import { createInstallationAuth } from '../../github/installation-auth.js';
import type { Logger } from '../../logger.js';
import { workspacesClosed } from '../../git/workspace.js';
import { createInstallationLimiter, type RateLimit } from '../../scheduler/installation-limiter.js';
import type { AppMetrics } from '../../scheduler/metrics.js';
import type { RunFailedHook, StageProcessors } from '../../runs/types.js';
import { createStatusPublisher } from '../../runs/status-publisher.js';
import type { RunPageLinks } from '../../runs/run-page-link.js';
import {
  startWorkerPool,
  type StageConcurrency,
  type WorkerPool,
} from '../../scheduler/worker-pool.js';
import type { QueueBackend } from './queue-backend.js';
import type { OperatorCostCaps } from '../../config/env.js';
import { budgetCapsOf } from '../../runs/budget-caps.js';
import { callJournalKey, createRedisCallJournal } from '../../runs/redis-call-journal.js';
import { createRedisSpendLedger } from '../../runs/redis-spend-ledger.js';
import type { MoneyPorts } from '../../scheduler/stage-runtime.js';
import { planApprovalPolicy } from './stages/plan-approval.js';

/** How long shutdown waits for the workspaces stages close in the background. */
const CLOSE_DEADLINE_MS = 30_000;

/** Shutdown, after the workers stopped: the workspaces their stages closed are closed. */
export async function stageWorkspacesClosed(log: Logger): Promise<void> {
  if (!(await workspacesClosed(CLOSE_DEADLINE_MS)))
    log.warn({ deadline_ms: CLOSE_DEADLINE_MS }, 'workspaces still closing at exit');
}

export interface WorkerSettings {
  processors: StageProcessors;
  onRunFailed?: RunFailedHook;
  concurrency?: Partial<StageConcurrency>;
  /** Per-installation limit on stage jobs started; undefined = none. */
  rateLimit?: RateLimit;
  stalledIntervalMs?: number;
  lockDurationMs?: number;
  /** Status comment publishing (status-publisher.ts); tests shorten them. */
  statusDebounceMs?: number;
  statusCreateAfterMs?: number;
  /** How long a parked run waits (`PARKED_RUN_TTL_HOURS`), and how often parkings are swept. */
  parkTtlMs?: number;
  parkSweepMs?: number;
  /** The operator's money caps (`MAX_RUN_COST_USD`, …); a run's own come from its config. */
  costCaps?: OperatorCostCaps;
  /** The run page's signed links (PUBLIC_URL set): status comments name the run's page. */
  runPage?: Pick<RunPageLinks, 'urlOf'>;
}

/** Money for every stage job: caps per run, the shared ledger, each run's call journal. */
function moneyPorts(backend: QueueBackend, prefix: string, caps: OperatorCostCaps): MoneyPorts {
  return {
    caps: (run) => budgetCapsOf(run.config, caps),
    ledger: createRedisSpendLedger(backend.redis, prefix),
    journal: (runId) => createRedisCallJournal(backend.redis, prefix, runId),
  };
}

export function startWorkers(options: {
  backend: QueueBackend;
  redisUrl: string;
  prefix: string;
  probot: Pick<Probot, 'auth'>;
  log: Logger;
  metrics: AppMetrics;
  redact: Redactor;
  settings: WorkerSettings;
}): WorkerPool {
  const { backend, settings, redact } = options;
  const auth = createInstallationAuth(options.probot, (token) => redact.add(token));
  return startWorkerPool({
    redisUrl: options.redisUrl,
    prefix: options.prefix,
    ...(settings.concurrency ? { concurrency: settings.concurrency } : {}),
    ...(settings.stalledIntervalMs ? { stalledIntervalMs: settings.stalledIntervalMs } : {}),
    ...(settings.lockDurationMs ? { lockDurationMs: settings.lockDurationMs } : {}),
    ...(settings.parkSweepMs ? { parkSweepMs: settings.parkSweepMs } : {}),
    runtime: {
      processors: settings.processors,
      queues: backend.queues,
      registry: backend.registry,
      runs: backend.runs,
      money: moneyPorts(backend, options.prefix, settings.costCaps ?? {}),
      forgetCalls: async (runId) => {
        await backend.redis.del(callJournalKey(options.prefix, runId));
      },
      ...(settings.parkTtlMs ? { parkTtlMs: settings.parkTtlMs } : {}),
      status: createStatusPublisher({
        redis: backend.redis,
        prefix: options.prefix,
        log: options.log,
        ...(settings.statusDebounceMs === undefined
          ? {}
          : { debounceMs: settings.statusDebounceMs }),
        ...(settings.statusCreateAfterMs === undefined
          ? {}
          : { createAfterMs: settings.statusCreateAfterMs }),
      }),
      auth,
      parkAfter: planApprovalPolicy({ auth, log: options.log, redact }),
      log: options.log,
      metrics: options.metrics,
      redact,
      ...(settings.rateLimit
        ? { limiter: createInstallationLimiter(backend.redis, options.prefix, settings.rateLimit) }
        : {}),
      ...(settings.onRunFailed ? { onRunFailed: settings.onRunFailed } : {}),
      ...(settings.runPage ? { runPage: settings.runPage } : {}),
    },
  });
}
