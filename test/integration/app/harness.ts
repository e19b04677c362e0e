/**
 * The app in-process against real Redis (unique key prefix, deleted afterwards) and the fake
 * GitHub, driven through its HTTP endpoint with signed deliveries.
 */
import { Redis } from 'ioredis';
import { deleteKeys } from '../../../src/scheduler/delete-keys.js';
import { runLockPrefix } from '../../../src/runs/run-registry.js';
import { randomUUID, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSettings } from '../../../src/config/env.js';
import { startFakeLlmServer, type FakeLlmServer } from '../../helpers/fake-llm-server.js';
import { bareRemote } from '../../helpers/repo-builder.js';
import { createSampleRepo, type SampleRepo } from '../../helpers/sample-repo.js';
import { Queue, type Job } from 'bullmq';
import { createRedactor, type Redactor } from '../../../src/artifacts/redact.js';
import type { Settings } from '../../../src/config/env.js';
import { createRunFailedHook } from '../../../src/hosts/app/stages/run-failed-hook.js';
import { createStageProcessors } from '../../../src/hosts/app/stages/stage-processors.js';
import type { StageTable } from '../../../src/pipeline/stages/stage-fn.js';
import { createLogger, type Logger } from '../../../src/logger.js';
import { createMetrics, type AppMetrics } from '../../../src/scheduler/metrics.js';
import type { RetryPolicy } from '../../../src/scheduler/stage-queues.js';
import type { RunFailedHook, StageName } from '../../../src/runs/types.js';
import type { Run, StageJobData } from '../../../src/runs/run-record.js';
import { createRedisRunStore } from '../../../src/runs/redis-run-store.js';
import { TRIGGER_QUEUE, type TriggerJobData } from '../../../src/intake/trigger-types.js';
import { startAutofix, type AutofixServer } from '../../../src/hosts/app/start-autofix.js';
import type { WorkerSettings } from '../../../src/hosts/app/worker-runtime.js';
import { startFakeGitHub, type FakeGitHub } from '../../helpers/fake-github.js';
import { testOctokit } from '../../helpers/github-client.js';
import { createTestStages, type StageFns, type TestStages } from '../../helpers/test-stages.js';
import { deliver, generateAppKeyPair, type Delivery } from '../../helpers/webhooks.js';
import { WAIT_MS } from '../../helpers/deadlines.js';
import { waitFor } from '../../helpers/wait-for.js';
import { STAGES } from '../../../src/contracts.js';

export const REDIS_URL = 'redis://127.0.0.1:6379';
export const SECRET = 'test-webhook-secret';

/** Keys are generated once per test file: RSA generation takes a while. */
let keys: ReturnType<typeof generateAppKeyPair> | undefined;

export interface HarnessOptions {
  workers?: boolean;
  overrides?: Partial<StageFns>;
  retry?: RetryPolicy;
  admissionRetry?: RetryPolicy;
  onRunFailed?: RunFailedHook;
  worker?: Partial<WorkerSettings>;
  adminPassword?: string;
  redisUrl?: string;
  intakeTimeoutMs?: number;
  /** The missed-delivery reconciler's interval (default 0: off, tests see only their requests). */
  reconcileIntervalMs?: number;
  /** Share a deployment with another harness (same queues, same fake GitHub). */
  prefix?: string;
  github?: FakeGitHub;
  /** Where the app logs (default: silent, or `TEST_LOG`'s level). */
  log?: Logger;
  /** PUBLIC_URL: status comments then link each run's page under it. */
  publicUrl?: string;
}

export interface Harness {
  github: FakeGitHub;
  app: AutofixServer;
  stages: TestStages;
  metrics: AppMetrics;
  prefix: string;
  send(event: string, payload: Record<string, unknown>, deliveryId?: string): Promise<Delivery>;
  jobs(stage: StageName): Promise<Job<StageJobData>[]>;
  /** The run records of a stage's jobs, in the jobs' order. */
  runsAt(stage: StageName): Promise<Run[]>;
  /** A run's record. */
  run(runId: string): Promise<Run | undefined>;
  /** The run holding an issue's lock, or null. */
  lockOf(repo: string, issue: number): Promise<string | null>;
  /** The trigger jobs (admission), finished or not. */
  triggers(): Promise<Job<TriggerJobData>[]>;
  /** Waits until every trigger sent so far has been through admission. */
  admitted(timeoutMs?: number): Promise<void>;
  /**
   * Stops the app within `deadlineMs` (a stage still running then is left active, as a killed
   * process leaves it) and this harness's own connections; Redis keys and the fake GitHub stay,
   * for a restart. `close` may still follow.
   */
  stop(deadlineMs?: number): Promise<{ forced: boolean }>;
  close(): Promise<void>;
}

export { waitFor };

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  keys ??= generateAppKeyPair();
  const github = options.github ?? (await startFakeGitHub({ appPublicKey: keys.publicKey }));
  github.setPermission('maintainer', 'write');
  const prefix = options.prefix ?? `autofix-test-${randomUUID().slice(0, 8)}`;
  const redisUrl = options.redisUrl ?? REDIS_URL;
  const stages = createTestStages(options.overrides);
  const metrics = createMetrics();
  const log = options.log ?? createLogger({ level: process.env.TEST_LOG ?? 'silent' });
  const app = await startAutofix({
    github: {
      appId: '1',
      privateKey: keys.privateKey,
      webhookSecret: SECRET,
      apiUrl: github.apiUrl,
      Octokit: testOctokit(),
    },
    redisUrl,
    prefix,
    host: '127.0.0.1',
    port: 0,
    log,
    redact: createRedactor([SECRET]),
    metrics,
    retry: options.retry ?? { attempts: 3, backoffMs: 50 },
    admissionRetry: options.admissionRetry ?? { attempts: 4, backoffMs: 50 },
    ...(options.adminPassword ? { adminPassword: options.adminPassword } : {}),
    ...(options.intakeTimeoutMs ? { intakeTimeoutMs: options.intakeTimeoutMs } : {}),
    reconcileIntervalMs: options.reconcileIntervalMs ?? 0,
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    ...(options.workers === false
      ? {}
      : {
          workers: {
            processors: stages.processors,
            ...(options.onRunFailed ? { onRunFailed: options.onRunFailed } : {}),
            ...options.worker,
          },
        }),
  });
  // Inspection uses its own connection, so tests can look at jobs after the app has stopped.
  const inspect = new Map<StageName, Queue<StageJobData>>();
  const queue = (stage: StageName): Queue<StageJobData> => {
    if (!inspect.has(stage))
      inspect.set(stage, new Queue<StageJobData>(stage, { connection: { url: redisUrl }, prefix }));
    return inspect.get(stage)!;
  };
  const recordsRedis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  const records = createRedisRunStore(recordsRedis, prefix);
  const triggerQueue = new Queue<TriggerJobData>(TRIGGER_QUEUE, {
    connection: { url: redisUrl },
    prefix,
  });
  const stop = async (deadlineMs = 5000): Promise<{ forced: boolean }> => {
    const stopped = await app.stop(deadlineMs).catch(() => ({ forced: true }));
    await Promise.all([...inspect.values(), triggerQueue].map((q) => q.close()));
    recordsRedis.disconnect();
    return stopped;
  };
  return {
    github,
    app,
    stages,
    metrics,
    prefix,
    triggers: () => triggerQueue.getJobs(),
    async admitted(timeoutMs = WAIT_MS) {
      await waitFor(
        async () => {
          const counts = await triggerQueue.getJobCounts(
            'waiting',
            'active',
            'delayed',
            'prioritized',
          );
          return Object.values(counts).every((n) => n === 0) || undefined;
        },
        timeoutMs,
        'admission of the triggers sent',
      );
    },
    send: (event, payload, deliveryId) =>
      deliver(app.url, { event, payload, secret: SECRET, ...(deliveryId ? { deliveryId } : {}) }),
    jobs: (stage) => queue(stage).getJobs(),
    run: (runId) => records.get(runId),
    lockOf: (repo, issue) => recordsRedis.get(`${runLockPrefix(prefix)}${repo}#${issue}`),
    async runsAt(stage) {
      const jobs = await queue(stage).getJobs();
      const found = await Promise.all(jobs.map((job) => records.get(job.data.runId)));
      return found.filter((run): run is Run => run !== undefined);
    },
    stop,
    async close() {
      await stop();
      await github.close();
      await deleteKeys(redisUrl, prefix);
    },
  };
}

/**
 * `autofix serve` in-process with the real stage processors (what `serve` wires), against the
 * fake GitHub and the shared Redis: the whole pipeline, for end-to-end tests.
 */
export async function startPipelineApp(options: {
  settings: Settings;
  github: FakeGitHub;
  privateKey: string;
  prefix: string;
  redact?: Redactor;
  retry?: RetryPolicy;
  /** The stage table the workers run (default: the product's `PIPELINE`). */
  table?: StageTable;
  /** Where the app logs (default: silent, or `TEST_LOG`'s level on stderr). */
  log?: Logger;
}): Promise<AutofixServer> {
  const redact = options.redact ?? createRedactor(options.settings.secrets);
  const log = options.log ?? createLogger({ level: process.env.TEST_LOG ?? 'silent' });
  const metrics = createMetrics();
  const deps = { settings: options.settings, log, metrics, redact };
  return startAutofix({
    github: {
      appId: '1',
      privateKey: options.privateKey,
      webhookSecret: SECRET,
      apiUrl: options.github.apiUrl,
      Octokit: testOctokit(),
    },
    redisUrl: REDIS_URL,
    prefix: options.prefix,
    host: '127.0.0.1',
    port: 0,
    log,
    redact,
    metrics,
    ...(options.retry ? { retry: options.retry } : {}),
    reconcileIntervalMs: 0,
    workers: {
      processors: createStageProcessors(deps, options.table),
      onRunFailed: createRunFailedHook(deps),
    },
  });
}

export { deleteKeys };

/** Every text the app sent GitHub: the PRs, every version of every comment, every write's body. */
export function everythingGitHubGot(github: FakeGitHub): string {
  return [
    ...github.pulls.flatMap((p) => [p.title, p.body]),
    ...[...github.comments.values()].flatMap((c) => c.history),
    ...github.calls('POST', /./).map((r) => JSON.stringify(r.body)),
    ...github.calls('PATCH', /./).map((r) => JSON.stringify(r.body)),
  ].join('\n');
}

/**
 * Waits until no run of the app at `prefix` holds an issue. A run's last comment and reactions
 * come before it releases its issue, and a trigger for the same issue in between is answered
 * "busy" (and never runs): a test that sends the next trigger when it sees the run's end must
 * wait for this first.
 */
export async function runsEnded(
  prefix: string,
  timeoutMs = WAIT_MS,
  redisUrl = REDIS_URL,
): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    await waitFor(
      async () => {
        // The whole keyspace, page by page: the shared Redis holds other tests' keys too.
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(
            cursor,
            'MATCH',
            `${runLockPrefix(prefix)}*`,
            'COUNT',
            1000,
          );
          if (keys.length > 0) return undefined;
          cursor = next;
        } while (cursor !== '0');
        return true;
      },
      timeoutMs,
      'every run to release its issue',
    );
  } finally {
    redis.disconnect();
  }
}

/**
 * Waits until nothing of the app at `prefix` is queued or running: every trigger admitted, every
 * stage job done (none waiting, delayed or active: a killed worker's job counts as active until
 * it is taken back as stalled and run again), every run's issue released. The marker to wait for
 * before asserting that nothing more happens.
 */
export async function appIdle(
  prefix: string,
  timeoutMs = WAIT_MS,
  redisUrl = REDIS_URL,
): Promise<void> {
  const queues = [TRIGGER_QUEUE, ...STAGES].map(
    (name) => new Queue(name, { connection: { url: redisUrl }, prefix }),
  );
  try {
    await waitFor(
      async () => {
        for (const queue of queues) {
          const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
          if (Object.values(counts).some((n) => n > 0)) return undefined;
        }
        return true;
      },
      timeoutMs,
      'every queued job to finish',
    );
  } finally {
    await Promise.all(queues.map((q) => q.close()));
  }
  await runsEnded(prefix, timeoutMs, redisUrl);
}

export interface PipelineEnv {
  /** The run's LLM key (a secret the app's redactor knows). */
  apiKey: string;
  /** The app's AUTOFIX_WORKDIR: mirrors, jobs and baselines. */
  workdir: string;
  github: FakeGitHub;
  llm: FakeLlmServer;
  app: AutofixServer;
  sample: SampleRepo;
  /** The sample's bare repository: the payloads' clone URL. */
  bare: string;
  /** The Redis key prefix of its queues. */
  prefix: string;
  git: (...args: string[]) => string;
  send(event: string, payload: Record<string, unknown>): Promise<Delivery>;
  /** `runsEnded` for this app. */
  runsEnded(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The real pipeline against the fake GitHub (a maintainer with write access, `.github/autofix.yml`
 * = `config`), the scripted LLM and the sample's bare repository: what the app end-to-end tests
 * share. `close` stops and deletes everything.
 */
export async function startPipelineEnv(options: {
  config: string;
  name: string;
  keys: { privateKey: string; publicKey: KeyObject };
  log?: Logger;
}): Promise<PipelineEnv> {
  const apiKey = `sk-${options.name}-key-0123456789abcdefXY`;
  const github = await startFakeGitHub({ appPublicKey: options.keys.publicKey });
  github.setPermission('maintainer', 'write');
  github.setFile('.github/autofix.yml', options.config);
  const llm = await startFakeLlmServer({ apiKey });
  const sample = createSampleRepo();
  const bare = sample.bare().dir;
  const workdir = mkdtempSync(join(tmpdir(), `autofix-${options.name}-`));
  const prefix = `autofix-${options.name}-${randomUUID().slice(0, 8)}`;
  const app = await startPipelineApp({
    settings: readSettings({
      OPENAI_BASE_URL: llm.baseUrl,
      OPENAI_API_KEY: apiKey,
      AUTOFIX_WORKDIR: workdir,
      AUTOFIX_MODEL: 'scripted',
    }),
    github,
    privateKey: options.keys.privateKey,
    prefix,
    redact: createRedactor([SECRET, apiKey]),
    retry: { attempts: 2, backoffMs: 50 },
    ...(options.log ? { log: options.log } : {}),
  });
  return {
    apiKey,
    workdir,
    github,
    llm,
    app,
    sample,
    bare,
    prefix,
    git: (...args) => bareRemote(bare).git(...args),
    send: (event, payload) => deliver(app.url, { event, payload, secret: SECRET }),
    runsEnded: (timeoutMs) => runsEnded(prefix, timeoutMs),
    async close() {
      await app.stop(5000).catch(() => undefined);
      await github.close();
      await llm.close();
      await deleteKeys(REDIS_URL, prefix);
      sample.cleanup();
      rmSync(workdir, { recursive: true, force: true });
    },
  };
}
