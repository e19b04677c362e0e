/**
 * One BullMQ worker per stage queue, with per-stage concurrency, stalled-job recovery and a
 * graceful close: stop taking jobs, abort the active ones' signal (they return to the queue), wait
 * up to a deadline, then force-close (whatever is still active is recovered as stalled later).
 */
import { Worker, type Job } from 'bullmq';
import { failRun } from '../runs/end-run.js';
import { startParkedRunSweeper } from './expire-parked-runs.js';
import { createStageJobProcessor, type StageJobResult } from './stage-job-processor.js';
import type { StageRuntime } from './stage-runtime.js';
import { byStage } from '../contracts.js';
import type { StageJobData } from '../runs/run-record.js';
import { STAGES, type StageName } from '../runs/types.js';

export type StageConcurrency = Record<StageName, number>;

/** Stages that run repository code (setup, tests) take a worker's CPU: fewer at once. */
export const DEFAULT_CONCURRENCY: StageConcurrency = byStage((stage) =>
  stage === 'code' || stage === 'reproduce' || stage === 'verify' ? 2 : 4,
);

export interface WorkerPoolOptions {
  runtime: Omit<StageRuntime, 'shutdown'>;
  redisUrl: string;
  prefix: string;
  concurrency?: Partial<StageConcurrency>;
  /** How often to look for jobs whose worker died (BullMQ `stalledInterval`). */
  stalledIntervalMs?: number;
  /** Times a job may stall before it fails for good. */
  maxStalledCount?: number;
  lockDurationMs?: number;
  /** How often to end parked runs whose parking expired (default 60 s). */
  parkSweepMs?: number;
}

type StageWorker = Worker<StageJobData, StageJobResult>;

export interface WorkerPool {
  workers: Record<StageName, StageWorker>;
  /** Resolves once closed; `forced` when active jobs outlived the deadline. */
  close(deadlineMs: number): Promise<{ forced: boolean }>;
}

const STALLED_FOR_GOOD = /stalled more than allowable limit/;

/**
 * Our own count of running processors: BullMQ's close() cannot be escalated to a forced one once
 * started, so the pool waits for this to reach zero before choosing how to close.
 */
interface ActiveCount {
  active: number;
}

export function startWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const shutdown = new AbortController();
  const rt: StageRuntime = { ...options.runtime, shutdown: shutdown.signal };
  const concurrency = { ...DEFAULT_CONCURRENCY, ...options.concurrency };
  const count: ActiveCount = { active: 0 };
  const workers = byStage((stage) => stageWorker(stage, rt, options, concurrency[stage], count));
  const stopSweeping = startParkedRunSweeper(rt, options.parkSweepMs ?? 60_000);

  let closing: Promise<{ forced: boolean }> | undefined;
  return {
    workers,
    close(deadlineMs) {
      stopSweeping();
      closing ??= closePool(workers, shutdown, count, rt, deadlineMs);
      return closing;
    },
  };
}

function stageWorker(
  stage: StageName,
  rt: StageRuntime,
  options: WorkerPoolOptions,
  concurrency: number,
  count: ActiveCount,
): StageWorker {
  const processStage = createStageJobProcessor(stage, rt);
  const worker = new Worker<StageJobData, StageJobResult>(
    stage,
    async (job, token, signal) => {
      count.active++;
      try {
        return await processStage(job, token, signal);
      } finally {
        count.active--;
      }
    },
    {
      connection: { url: options.redisUrl },
      prefix: options.prefix,
      concurrency,
      stalledInterval: options.stalledIntervalMs ?? 30_000,
      // A stall is usually a worker that died (deploy, OOM of a neighbour, lost host), and every
      // stage goes on from its own earlier work; only a job that keeps killing its worker is
      // stopped, after 6 tries.
      maxStalledCount: options.maxStalledCount ?? 5,
      lockDuration: options.lockDurationMs ?? 60_000,
    },
  );
  worker.on('error', (err) => rt.log.error({ err, stage }, 'worker error'));
  // A job that stalled too often never reached our processor's failure path: end its run here.
  worker.on('failed', (job: Job<StageJobData> | undefined, err: Error) => {
    if (!job || !STALLED_FOR_GOOD.test(err.message)) return;
    failStalledRun(rt, stage, job);
  });
  return worker;
}

/** Ends the run of a job that stalled too often (in the background; failures are logged). */
function failStalledRun(rt: StageRuntime, stage: StageName, job: Job<StageJobData>): void {
  const log = rt.log.child({ runId: job.data.runId, stage });
  const failing = async (): Promise<void> => {
    const run = await rt.runs.get(job.data.runId);
    if (!run) return log.error('the run of a stalled job is not in the run store');
    const client = await rt.auth(run.installationId);
    await failRun(
      rt,
      run,
      client,
      {
        stage,
        error: {
          code: 'TIMEOUT',
          message: 'The worker running this stage stopped responding too often.',
          recoverable: false,
        },
        attempts: job.attemptsMade,
      },
      log,
    );
  };
  void failing().catch((e: unknown) => log.error({ err: e }, 'could not report a stalled run'));
}

/** Stops taking jobs, aborts the active ones, waits for them up to the deadline, then closes. */
async function closePool(
  workers: Record<StageName, StageWorker>,
  shutdown: AbortController,
  count: ActiveCount,
  rt: StageRuntime,
  deadlineMs: number,
): Promise<{ forced: boolean }> {
  await Promise.all(STAGES.map((s) => workers[s].pause(true))); // stop taking jobs
  shutdown.abort(new Error('shutting down'));
  const deadline = Date.now() + deadlineMs;
  while (count.active > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const forced = count.active > 0;
  if (forced) {
    rt.log.warn(
      { deadlineMs, active: count.active },
      'active jobs outlived the shutdown deadline; force-closing',
    );
  }
  await Promise.all(STAGES.map((s) => workers[s].close(forced)));
  return { forced };
}
