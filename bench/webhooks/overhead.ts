/**
 * Per-issue pipeline overhead: the real app in-process (webhook intake, BullMQ chain, the real
 * triage/plan/code/pr stage processors, git against a local bare repository, validation under the
 * sandbox) driven by a signed `issues.labeled` per run, the LLM a scripted OpenAI-compatible
 * server, GitHub the fake one. One run at a time on a warm workspace (the first runs, which create
 * the mirror and warm the JIT, are not counted).
 *
 * overhead = (PR request at GitHub − webhook sent) − time the LLM server spent answering − the
 * validation commands' own durations. Everything else counts: intake, queue hops, token minting,
 * workspace open/recycle, context building, diff application, `git apply --check`, commit, push,
 * status comment edits, reactions.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, type Job } from 'bullmq';
import { createRedactor } from '../../src/artifacts/redact.js';
import { readSettings } from '../../src/config/env.js';
import { createLogger } from '../../src/logger.js';
import { createRunFailedHook } from '../../src/hosts/app/stages/run-failed-hook.js';
import { createStageProcessors } from '../../src/hosts/app/stages/stage-processors.js';
import { createMetrics } from '../../src/scheduler/metrics.js';
import { ROUTES, STAGES, type StageName } from '../../src/runs/types.js';
import type { Run, RunStore, StageJobData } from '../../src/runs/run-record.js';
import { createRedisRunStore } from '../../src/runs/redis-run-store.js';
import { Redis } from 'ioredis';

/** The stages of a fix run: the ones a labelled issue goes through. */
type FixStage = (typeof ROUTES.fix)[number];
import { startAutofix } from '../../src/hosts/app/start-autofix.js';
import type { FakeGitHub } from '../../fakes/github/index.js';
import { startFakeLlmServer } from '../../test/helpers/fake-llm-server.js';
import { testOctokit } from '../../test/helpers/github-client.js';
import {
  createSampleRepo,
  FIX_DIFF,
  PLAN,
  PR_SUMMARY,
  TRIAGE,
} from '../../test/helpers/sample-repo.js';
import { deleteKeys } from '../../src/scheduler/delete-keys.js';
import { workspacesClosed } from '../../src/git/workspace.js';
import { deliver, labeledPayload } from '../../test/helpers/webhooks.js';

async function until<T>(probe: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`overhead run: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

export interface OverheadSample {
  totalMs: number;
  llmMs: number;
  validationMs: number;
  overheadMs: number;
  /** Webhook sent → the triage job was created (intake). */
  intakeMs: number;
  /** Per stage: waiting in its queue, and running (LLM and validation included). */
  waitMs: Record<FixStage, number>;
  runMs: Record<FixStage, number>;
}

export interface OverheadOptions {
  github: FakeGitHub;
  privateKey: string;
  secret: string;
  redisUrl: string;
  runs: number;
  /** Probot's production Octokit (write throttling + retries) instead of the test one. */
  productionOctokit: boolean;
  /** How long the scripted LLM takes per answer. */
  llmDelayMs: number;
  warmup?: number;
}

const TITLE = 'add() returns the wrong result';

export async function measureOverhead(options: OverheadOptions): Promise<OverheadSample[]> {
  const { github } = options;
  const warmup = options.warmup ?? 3;
  const prefix = `autofix-bench-overhead-${randomUUID().slice(0, 8)}`;
  const llm = await startFakeLlmServer();
  const sample = createSampleRepo();
  const bare = join(sample.root, 'remote.git');
  execFileSync('git', ['clone', '--quiet', '--bare', sample.dir, bare]);
  const workdir = mkdtempSync(join(tmpdir(), 'autofix-bench-overhead-'));
  github.setFile(
    '.github/autofix.yml',
    'reproduce: off\nvalidate:\n  - node test.js\nsandbox: auto\n',
  );
  const settings = readSettings({
    OPENAI_BASE_URL: llm.baseUrl,
    OPENAI_API_KEY: 'sk-bench-overhead-0000000000000000',
    AUTOFIX_WORKDIR: workdir,
    AUTOFIX_MODEL: 'scripted',
  });
  const log = createLogger({ level: 'silent' });
  const redact = createRedactor();
  const metrics = createMetrics();
  const deps = { settings, log, metrics, redact };
  const app = await startAutofix({
    github: {
      appId: '1',
      privateKey: options.privateKey,
      webhookSecret: options.secret,
      apiUrl: github.apiUrl,
      ...(options.productionOctokit ? {} : { Octokit: testOctokit() }),
    },
    redisUrl: options.redisUrl,
    prefix,
    host: '127.0.0.1',
    port: 0,
    log,
    redact,
    metrics,
    // No installation rate limit (a deliberate brake, not overhead): runs follow each other.
    workers: { processors: createStageProcessors(deps), onRunFailed: createRunFailedHook(deps) },
  });
  const queues = Object.fromEntries(
    STAGES.map((s) => [
      s,
      new Queue<StageJobData>(s, { connection: { url: options.redisUrl }, prefix }),
    ]),
  ) as Record<StageName, Queue<StageJobData>>;
  // Stage jobs carry only the run id: the run's issue and outputs are in its record.
  const recordsRedis = new Redis(options.redisUrl, { maxRetriesPerRequest: 1 });
  const records = createRedisRunStore(recordsRedis, prefix);
  const samples: OverheadSample[] = [];
  const base = 700_000 + Math.floor(Math.random() * 100_000) * 10;
  try {
    for (let i = 0; i < options.runs + warmup; i++) {
      const issue = base + i;
      const branch = `autofix/fix/${issue}-add-returns-the-wrong-result`;
      const delayMs = options.llmDelayMs;
      const firstLlm = llm.chatRequests().length;
      llm.enqueue(
        { content: JSON.stringify(TRIAGE), delayMs },
        { content: JSON.stringify(PLAN), delayMs },
        { content: FIX_DIFF, delayMs },
        { content: JSON.stringify(PR_SUMMARY), delayMs },
      );
      const sent = performance.timeOrigin + performance.now();
      const res = await deliver(app.url, {
        event: 'issues',
        payload: labeledPayload({ issueNumber: issue, title: TITLE, cloneUrl: bare }),
        secret: options.secret,
      });
      if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${res.text}`);
      const pr = await until(
        () =>
          github
            .calls('POST', /\/pulls$/)
            .find((r) => (r.body as { head?: string }).head === branch),
        60_000,
        `the PR of issue ${issue}`,
      );
      // Let the run end (🚀) before the next one, so runs do not overlap.
      await until(
        () =>
          github
            .calls('POST', new RegExp(`/issues/${issue}/reactions$`))
            .find((r) => (r.body as { content?: string }).content === 'rocket'),
        60_000,
        `the end of issue ${issue}`,
      );
      // One run at a time means the last one is over: its worktrees parked or removed too (they
      // close in the background after each stage answered).
      if (!(await workspacesClosed(60_000))) throw new Error('overhead run: closes did not end');
      if (i < warmup) continue;
      const calls = llm.chatRequests().slice(firstLlm);
      const llmMs = calls.reduce(
        (sum, r) => sum + ((r.respondedAt ?? r.receivedAt) - r.receivedAt),
        0,
      );
      const { run, jobs } = await runJobs(queues, records, issue);
      const validationMs = (run.outputs.code?.code.validation ?? []).reduce(
        (sum, v) => sum + v.duration_ms,
        0,
      );
      const totalMs = pr.at - sent;
      samples.push({
        totalMs,
        llmMs,
        validationMs,
        overheadMs: totalMs - llmMs - validationMs,
        intakeMs: jobs.triage.timestamp - sent,
        waitMs: perStage((s) => (jobs[s].processedOn ?? 0) - jobs[s].timestamp),
        runMs: perStage((s) => (jobs[s].finishedOn ?? pr.at) - (jobs[s].processedOn ?? 0)),
      });
    }
  } finally {
    await app.stop(10_000);
    await Promise.all(STAGES.map((s) => queues[s].close()));
    recordsRedis.disconnect();
    await llm.close();
    await deleteKeys(options.redisUrl, prefix);
    sample.cleanup();
    rmSync(workdir, { recursive: true, force: true });
  }
  return samples;
}

function perStage(f: (stage: FixStage) => number): Record<FixStage, number> {
  return Object.fromEntries(ROUTES.fix.map((s) => [s, f(s)])) as Record<FixStage, number>;
}

/** The run of an issue (its record) and its jobs, found through its triage job (ids `<runId>-<stage>`). */
async function runJobs(
  queues: Record<StageName, Queue<StageJobData>>,
  records: RunStore,
  issue: number,
): Promise<{ run: Run; jobs: Record<FixStage, Job<StageJobData>> }> {
  const triages = await queues.triage.getJobs(['completed']);
  const runs = await Promise.all(triages.map((j) => records.get(j.data.runId)));
  const run = runs.find((r) => r?.issue.number === issue);
  if (!run) throw new Error(`no run (triage job) for issue ${issue}`);
  const entries = await Promise.all(
    ROUTES.fix.map(async (s) => {
      const job = await queues[s].getJob(`${run.runId}-${s}`);
      if (!job) throw new Error(`no ${s} job for issue ${issue}`);
      return [s, job] as const;
    }),
  );
  return { run, jobs: Object.fromEntries(entries) as Record<FixStage, Job<StageJobData>> };
}
