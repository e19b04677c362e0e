/**
 * The stage side of the app for bench:fairness: real Redis (its own key prefix), the real stage
 * queues (fair share on or off), worker pool, run intake, registry and status publisher, GitHub
 * the fake one. Each stage function waits a fixed latency (a scripted model) and then answers as
 * the test stages do (the last one opens a pull request on the fake GitHub); every stage's start
 * and end is recorded per run.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createRedactor } from '../../src/artifacts/redact.js';
import { buildRunJob } from '../../src/intake/build-run-job.js';
import { createRunIntake, type RunIntake } from '../../src/intake/run-intake.js';
import { DEFAULT_REPO_CONFIG } from '../../src/config/repo-config.js';
import {
  createInstallationAuth,
  type InstallationAuth,
} from '../../src/github/installation-auth.js';
import { probotClass } from '../../src/hosts/app/probot-class.js';
import { silentLogger } from '../../src/logger.js';
import { createRedisRunStore } from '../../src/runs/redis-run-store.js';
import type { Run } from '../../src/runs/run-record.js';
import { createRunRegistry } from '../../src/runs/run-registry.js';
import { createStatusPublisher } from '../../src/runs/status-publisher.js';
import {
  STAGES,
  type RunJobData,
  type StageName,
  type StageProcessors,
} from '../../src/runs/types.js';
import { deleteKeys } from '../../src/scheduler/delete-keys.js';
import type { JobOrder } from '../../src/scheduler/fair-share/stage-queue.js';
import { createMetrics } from '../../src/scheduler/metrics.js';
import { closeStageQueues, createStageQueues } from '../../src/scheduler/stage-queues.js';
import { startWorkerPool } from '../../src/scheduler/worker-pool.js';
import type { FakeGitHub } from '../../fakes/github/index.js';
import { testOctokit } from '../../test/helpers/github-client.js';
import { createTestStages } from '../../test/helpers/test-stages.js';

export interface StageTimes {
  start: number;
  end?: number;
}

export interface StageApp {
  /** Queues a run of `installationId` for issue `issue`; resolves once its first job is queued. */
  start(installationId: number, issue: number): Promise<string>;
  /** Per run id, per stage: when its stage function was called and when it answered. */
  times: Map<string, Partial<Record<StageName, StageTimes>>>;
  close(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function timedProcessors(latencyMs: number, times: StageApp['times']): StageProcessors {
  const base = createTestStages().processors;
  const timed = <S extends StageName>(stage: S): StageProcessors[S] =>
    (async (job: Run, ctx: Parameters<StageProcessors[S]>[1]) => {
      const run = times.get(job.runId) ?? {};
      times.set(job.runId, run);
      const at: StageTimes = { start: performance.now() };
      run[stage] = at;
      await sleep(latencyMs);
      const outcome = await base[stage](job, ctx);
      at.end = performance.now();
      return outcome;
    }) as StageProcessors[S];
  return Object.fromEntries(STAGES.map((s) => [s, timed(s)])) as StageProcessors;
}

function runJob(installationId: number, issue: number): RunJobData {
  const owner = `owner-${installationId}`;
  return buildRunJob({
    deliveryId: randomUUID(),
    installationId,
    repository: {
      name: 'app',
      full_name: `${owner}/app`,
      clone_url: `https://github.com/${owner}/app.git`,
      default_branch: 'main',
      owner: { login: owner },
    },
    issue: { number: issue, title: `Issue ${issue}`, body: 'A typo' },
    trigger: { kind: 'label', label: 'autofix' },
    sender: 'maintainer',
    config: DEFAULT_REPO_CONFIG,
  });
}

/**
 * Installation tokens from the fake GitHub, kept for the whole bench (as a running app keeps them
 * for an hour): no scenario pays for minting them.
 */
export function benchAuth(github: FakeGitHub, privateKey: string): InstallationAuth {
  const credentials = { appId: '1', privateKey, apiUrl: github.apiUrl, Octokit: testOctokit() };
  const Probot = probotClass(credentials, silentLogger);
  return createInstallationAuth(new Probot());
}

export function startStageApp(options: {
  auth: InstallationAuth;
  redisUrl: string;
  order: JobOrder;
  latencyMs: number;
}): StageApp {
  const prefix = `autofix-bench-fair-${randomUUID().slice(0, 8)}`;
  const redis = new Redis(options.redisUrl);
  const queues = createStageQueues(redis, prefix, { attempts: 2, backoffMs: 100 }, options.order);
  const registry = createRunRegistry(redis, prefix);
  const runs = createRedisRunStore(redis, prefix);
  const times: StageApp['times'] = new Map();
  const log = silentLogger;
  const redact = createRedactor();
  const pool = startWorkerPool({
    redisUrl: options.redisUrl,
    prefix,
    runtime: {
      processors: timedProcessors(options.latencyMs, times),
      queues,
      registry,
      runs,
      status: createStatusPublisher({ redis, prefix, log }),
      auth: options.auth,
      log,
      metrics: createMetrics(),
      redact,
    },
  });
  const intake: RunIntake = createRunIntake({ queues, registry, runs, log });
  return {
    async start(installationId, issue) {
      const result = await intake.start(runJob(installationId, issue));
      if (result.kind !== 'started') throw new Error(`run not started: ${result.kind}`);
      return result.runId;
    },
    times,
    async close() {
      await pool.close(10_000);
      await closeStageQueues(queues);
      await redis.quit();
      await deleteKeys(options.redisUrl, prefix);
    },
  };
}
