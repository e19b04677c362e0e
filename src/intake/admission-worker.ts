/**
 * The worker of the `trigger` queue: turns each persisted trigger into a run (or a reply) through
 * the admission function it is given. A GitHub outage during admission is retried with backoff
 * (the job's attempts); only an error that will not go away by waiting drops the trigger, and
 * says so in the log.
 */
import { Worker, type Job } from 'bullmq';
import type { InstallationAuth } from '../github/installation-auth.js';
import type { GitHubClient } from '../github/types.js';
import type { Logger } from '../logger.js';
import { classifyError } from '../classify-error.js';
import type { AppMetrics } from '../scheduler/metrics.js';
import type { RunRegistry } from '../runs/run-registry.js';
import type { RetryPolicy } from '../scheduler/stage-queues.js';
import { TRIGGER_QUEUE, type TriggerJobData } from './trigger-types.js';

/** Admission retries: backoff 2 s doubling, about an hour of GitHub outage before a trigger is dropped. */
export const DEFAULT_ADMISSION_RETRY: RetryPolicy = { attempts: 12, backoffMs: 2000 };

export type AdmitFn = (
  trigger: TriggerJobData,
  octokit: GitHubClient,
  log: Logger,
) => Promise<string>;

export interface AdmissionWorkerOptions {
  redisUrl: string;
  prefix: string;
  auth: InstallationAuth;
  admit: AdmitFn;
  /** Triggers of an installation or repository lost since they arrived are dropped unasked. */
  gone?: Pick<RunRegistry, 'goneSince'>;
  log: Logger;
  metrics?: AppMetrics;
  concurrency?: number;
  stalledIntervalMs?: number;
  lockDurationMs?: number;
  /**
   * Awaited before each admission: deliveries being answered go first (deliveries-first.ts). The
   * job is active meanwhile (its lock is renewed); keep the wait well under `lockDurationMs`.
   */
  yieldTo?: () => Promise<void>;
}

export function startAdmissionWorker(options: AdmissionWorkerOptions): AdmissionWorker {
  let active = 0;
  const worker = new Worker<TriggerJobData, string>(
    TRIGGER_QUEUE,
    async (job) => {
      active++;
      try {
        await options.yieldTo?.();
        return await admitJob(job);
      } finally {
        active--;
      }
    },
    {
      connection: { url: options.redisUrl },
      prefix: options.prefix,
      concurrency: options.concurrency ?? 8,
      stalledInterval: options.stalledIntervalMs ?? 30_000,
      lockDuration: options.lockDurationMs ?? 60_000,
    },
  );
  worker.on('error', (err) => options.log.error({ err }, 'admission worker error'));

  async function admitJob(job: Job<TriggerJobData>): Promise<string> {
    const t = job.data;
    const attempt = job.attemptsMade + 1;
    const log = options.log.child({
      delivery: t.deliveryId,
      issue: t.issue.number,
      repo: t.repository.full_name,
      attempt,
    });
    try {
      const since = await options.gone?.goneSince(t.installationId, t.repository.full_name);
      if (since !== undefined && t.receivedAt <= since) {
        log.info('the app lost this installation or repository: trigger dropped');
        return 'installation-gone';
      }
      const client = await options.auth(t.installationId);
      const result = await options.admit(t, client.octokit, log);
      log.info({ result }, 'trigger admitted');
      return result;
    } catch (err) {
      const verdict = classifyError(err);
      const attempts = job.opts.attempts ?? 1;
      if (verdict.transient && attempt < attempts) {
        log.warn({ err, attempts }, 'admission failed; will retry');
        throw err;
      }
      log.error(
        { err, code: verdict.shape.code },
        'admission failed for good: the trigger starts no run',
      );
      options.metrics?.deliveries.inc({ event: t.event, result: 'admission-failed' });
      return 'failed';
    }
  }

  let closing: Promise<void> | undefined;
  return {
    worker,
    close(deadlineMs) {
      closing ??= (async () => {
        // Admissions are short: let the running ones finish, up to the deadline; a forced close
        // leaves the rest to stalled-job recovery (admission is idempotent).
        await worker.pause(true).catch(() => undefined);
        const deadline = Date.now() + deadlineMs;
        while (active > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        await worker.close(true);
      })();
      return closing;
    },
  };
}

export interface AdmissionWorker {
  worker: Worker<TriggerJobData, string>;
  close(deadlineMs: number): Promise<void>;
}
