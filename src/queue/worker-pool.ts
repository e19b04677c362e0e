/**
 * One BullMQ worker per stage queue, with per-stage concurrency, stalled-job recovery and a
 * graceful close: stop taking jobs, abort the active ones' signal (they return to the queue), wait
 * up to a deadline, then force-close (whatever is still active is recovered as stalled later).
 */
import { Worker, type Job } from 'bullmq';
import { failRun } from './end-run.js';
import { createStageJobProcessor, type StageJobResult } from './stage-job-processor.js';
import type { StageRuntime } from './stage-runtime.js';
import { byStage } from '../contracts.js';
import { STAGES, type RunJobData, type StageName } from './types.js';

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
}

export interface WorkerPool {
  workers: Record<StageName, Worker<RunJobData, StageJobResult>>;
  /** Resolves once closed; `forced` when active jobs outlived the deadline. */
  close(deadlineMs: number): Promise<{ forced: boolean }>;
}

const STALLED_FOR_GOOD = /stalled more than allowable limit/;

export function startWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const shutdown = new AbortController();
  const rt: StageRuntime = { ...options.runtime, shutdown: shutdown.signal };
  const concurrency = { ...DEFAULT_CONCURRENCY, ...options.concurrency };

  // Our own count of running processors: BullMQ's close() cannot be escalated to a forced one
  // once started, so the pool waits for this to reach zero before choosing how to close.
  let active = 0;
  const make = (stage: StageName): Worker<RunJobData, StageJobResult> => {
    const processStage = createStageJobProcessor(stage, rt);
    const worker = new Worker<RunJobData, StageJobResult>(
      stage,
      async (job, token, signal) => {
        active++;
        try {
          return await processStage(job, token, signal);
        } finally {
          active--;
        }
      },
      {
        connection: { url: options.redisUrl },
        prefix: options.prefix,
        concurrency: concurrency[stage],
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
    worker.on('failed', (job: Job<RunJobData> | undefined, err: Error) => {
      if (!job || !STALLED_FOR_GOOD.test(err.message)) return;
      const log = rt.log.child({ runId: job.data.runId, stage });
      void rt
        .auth(job.data.installationId)
        .then((client) =>
          failRun(
            rt,
            job.data,
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
          ),
        )
        .catch((e: unknown) => log.error({ err: e }, 'could not report a stalled run'));
    });
    return worker;
  };

  const workers = byStage(make);

  let closing: Promise<{ forced: boolean }> | undefined;
  return {
    workers,
    close(deadlineMs) {
      closing ??= (async () => {
        await Promise.all(STAGES.map((s) => workers[s].pause(true))); // stop taking jobs
        shutdown.abort(new Error('shutting down'));
        const deadline = Date.now() + deadlineMs;
        while (active > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        const forced = active > 0;
        if (forced) {
          rt.log.warn(
            { deadlineMs, active },
            'active jobs outlived the shutdown deadline; force-closing',
          );
        }
        await Promise.all(STAGES.map((s) => workers[s].close(forced)));
        return { forced };
      })();
      return closing;
    },
  };
}
