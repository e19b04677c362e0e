/**
 * Issue #36: every process restarted while runs are parked loses none. A private redis-server
 * with an append-only file synced on every write; a worker process and a webhook-only `serve`
 * process (both the app in-process, one prefix, one fake GitHub); three runs parked for each
 * reason (an LLM down past the retries, a spending cap, plan approval), one run in the middle of
 * a stage and one queued but not started. Then the worker is stopped as a kill leaves it (the
 * stage never lets go), the serve process stops, and Redis is SIGKILLed — no clean shutdown, no
 * snapshot: only the AOF holds the state. Redis starts again on the same port and directory, new
 * processes start, the parked runs are resumed, and each run ends with exactly one PR, without
 * any earlier stage run again and the queued one run once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AutofixError } from '../../../src/errors.js';
import type { BudgetCapHit, Run } from '../../../src/runs/run-record.js';
import type { StageName } from '../../../src/runs/types.js';
import { freePort } from '../../helpers/cli.js';
import { underLoad, WAIT_MS } from '../../helpers/deadlines.js';
import type { FakeGitHub } from '../../helpers/fake-github.js';
import { createTestStages, testBranch, type StageFns } from '../../helpers/test-stages.js';
import { commentPayload, labeledPayload } from '../../helpers/webhooks.js';
import { appIdle, startHarness, waitFor, type Harness, type HarnessOptions } from './harness.js';
import { startOwnRedis, type OwnRedis } from './own-redis.js';

const { defaults } = createTestStages();

/** The issue of each run, by what happens to it before the restart. */
const ISSUE = { llm: 31, budget: 32, approval: 33, midStage: 34, queued: 35 } as const;
const CAP: BudgetCapHit = { scope: 'run', limit: 2, spent: 1.94 };

/** Stages as the first worker runs them: each issue meets its own trouble. */
function troubledStages(onHang: () => void): Partial<StageFns> {
  return {
    plan: async (job, ctx) => {
      const planned = await defaults.plan(job, ctx);
      if (job.issue.number !== ISSUE.approval || planned.kind !== 'continue') return planned;
      const message = 'approve the plan';
      return { kind: 'park', reason: 'plan-approval', message, output: planned.output };
    },
    reproduce: (job, ctx) =>
      job.issue.number === ISSUE.budget
        ? Promise.reject(
            new AutofixError('BUDGET_PAUSED', 'paused at $1.94 of $2.00 after plan', {
              details: { cap: CAP },
            }),
          )
        : defaults.reproduce(job, ctx),
    code: (job, ctx) => {
      if (job.issue.number === ISSUE.llm)
        return Promise.reject(new AutofixError('LLM_UNAVAILABLE', 'the LLM answered 503'));
      if (job.issue.number !== ISSUE.midStage) return defaults.code(job, ctx);
      onHang();
      // A killed process: the stage never answers, not even to the shutdown signal.
      return new Promise(() => undefined);
    },
  };
}

/** The run started on `issue` (found through the triage queue), once `ready` holds for it. */
function runOn(h: Harness, issue: number, ready: (run: Run) => boolean = () => true) {
  return waitFor(
    async () => (await h.runsAt('triage')).find((r) => r.issue.number === issue && ready(r)),
    WAIT_MS,
    `the run of #${issue}`,
  );
}

/** Worker settings of both generations: a killed worker's job is taken back within seconds. */
const WORKER = {
  lockDurationMs: 5000,
  stalledIntervalMs: 500,
  statusCreateAfterMs: 0,
  statusDebounceMs: 0,
};

interface World {
  dir: string;
  port: number;
  redis: OwnRedis;
  /** The first harness's (it holds the App's keys); every later one shares it. */
  github?: FakeGitHub;
  prefix: string;
  harnesses: Harness[];
}

const redisArgs = (dir: string): string[] => [
  '--appendonly',
  'yes',
  '--appendfsync',
  'always',
  '--dir',
  dir,
];

async function setUp(): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), 'autofix-parked-restart-'));
  const port = await freePort();
  const redis = await startOwnRedis(redisArgs(dir), { port });
  return { dir, port, redis, prefix: `autofix-parked-${port}`, harnesses: [] };
}

async function start(w: World, options: HarnessOptions): Promise<Harness> {
  const h = await startHarness({
    redisUrl: w.redis.url,
    prefix: w.prefix,
    ...(w.github ? { github: w.github } : {}),
    ...options,
  });
  w.github ??= h.github;
  w.harnesses.push(h);
  return h;
}

/** SIGKILLs the redis-server (no shutdown save: only the AOF survives) and waits for its exit. */
async function killRedis(redis: OwnRedis): Promise<void> {
  const exited = new Promise((resolve) => redis.child.once('exit', resolve));
  redis.child.kill('SIGKILL');
  await exited;
}

/** Before the restart: the three parkings, the run mid-stage, the queued run. Answers the records. */
async function beforeRestart(w: World): Promise<Record<keyof typeof ISSUE, Run>> {
  let hung = false;
  const worker = await start(w, {
    overrides: troubledStages(() => (hung = true)),
    retry: { attempts: 2, backoffMs: 20 },
    worker: WORKER,
  });
  const serve = await start(w, { workers: false });
  for (const issue of [ISSUE.llm, ISSUE.budget, ISSUE.approval, ISSUE.midStage])
    await serve.send('issues', labeledPayload({ issueNumber: issue }));
  const parked = (r: Run): boolean => r.parked !== undefined;
  const llm = await runOn(serve, ISSUE.llm, parked);
  const budget = await runOn(serve, ISSUE.budget, parked);
  const approval = await runOn(serve, ISSUE.approval, parked);
  await waitFor(() => hung || undefined, WAIT_MS, 'the stage that hangs');
  // The worker dies: the hung stage keeps its job active, its lock lapses later.
  expect((await worker.stop(100)).forced).toBe(true);
  const midStage = await runOn(serve, ISSUE.midStage);

  // With no worker left, a new issue is admitted and its first stage waits in the queue.
  await serve.send('issues', labeledPayload({ issueNumber: ISSUE.queued }));
  await serve.admitted();
  const queued = await runOn(serve, ISSUE.queued);
  // The records as the killed Redis last acknowledged them.
  const latest = async (run: Run): Promise<Run> => (await serve.run(run.runId))!;
  const records = {
    llm: await latest(llm),
    budget: await latest(budget),
    approval: await latest(approval),
    midStage: await latest(midStage),
    queued: await latest(queued),
  };
  await serve.stop();
  await killRedis(w.redis);
  return records;
}

/** What the restarted Redis holds is what the killed one had acknowledged. */
async function expectSurvived(serve: Harness, before: Record<string, Run>): Promise<void> {
  expect((await serve.run(before.llm!.runId))!.parked).toMatchObject({
    reason: 'llm-unavailable',
    resumeAt: 'code',
  });
  expect((await serve.run(before.budget!.runId))!.parked).toMatchObject({
    reason: 'budget',
    resumeAt: 'reproduce',
    cap: CAP,
  });
  expect((await serve.run(before.approval!.runId))!.parked).toMatchObject({
    reason: 'plan-approval',
    resumeAt: 'reproduce',
  });
  expect((await serve.run(before.approval!.runId))!.outputs.plan).toBeDefined();
  for (const run of Object.values(before)) expect(await serve.run(run.runId)).toEqual(run);
  const midStage = (await serve.jobs('code')).find((j) => j.data.runId === before.midStage!.runId);
  expect(await midStage!.getState()).toBe('active');
  const [triage] = (await serve.jobs('triage')).filter(
    (j) => j.data.runId === before.queued!.runId,
  );
  // Fair share queues every stage job with a priority: waiting, in BullMQ's prioritized set.
  expect(['waiting', 'prioritized']).toContain(await triage!.getState());
}

/** The maintainer's answers: `/autofix continue` where it applies, `/autofix approve` for the plan. */
async function resumeAll(serve: Harness, before: Record<string, Run>): Promise<void> {
  for (const issue of [ISSUE.llm, ISSUE.budget])
    await serve.send(
      'issue_comment',
      commentPayload({ issueNumber: issue, comment: '/autofix continue' }),
    );
  await serve.send(
    'issue_comment',
    commentPayload({ issueNumber: ISSUE.approval, comment: '/autofix approve' }),
  );
  await serve.admitted();
  await waitFor(
    async () => (await serve.run(before.approval!.runId))?.resumes.length === 1 || undefined,
    undefined,
    'the plan approved',
  );
}

/** Each run's stages on the new worker, in order. */
function callsByRun(h: Harness): Map<string, StageName[]> {
  const calls = new Map<string, StageName[]>();
  for (const c of h.stages.calls) calls.set(c.runId, [...(calls.get(c.runId) ?? []), c.stage]);
  return calls;
}

describe('every process restarted while runs are parked', () => {
  let w: World | undefined;
  afterEach(async () => {
    if (!w) return;
    for (const h of w.harnesses) await h.stop(1000);
    await w.github?.close();
    await w.redis.stop();
    rmSync(w.dir, { recursive: true, force: true });
    w = undefined;
  });

  it(
    'loses none: each parked run resumes where it parked, the killed and the queued ones run once',
    async () => {
      w = await setUp();
      const world = w;
      const before = await beforeRestart(world);
      const oldCalls = world.harnesses[0]!.stages.calls;
      expect(oldCalls.filter((c) => c.runId === before.queued.runId)).toEqual([]);

      world.redis = await startOwnRedis(redisArgs(world.dir), { port: world.port });
      const serve = await start(world, { workers: false });
      await expectSurvived(serve, before);
      const worker = await start(world, { worker: WORKER });
      await resumeAll(serve, before);

      await waitFor(() => world.github!.pulls.length >= 5 || undefined, underLoad(30_000), '5 PRs');
      await appIdle(world.prefix, WAIT_MS, world.redis.url);
      expect(world.github!.pulls.map((p) => p.head).sort()).toEqual(
        Object.values(before)
          .map((r) => testBranch(r))
          .sort(),
      );
      for (const run of Object.values(before))
        expect((await serve.run(run.runId))!.ending).toMatchObject({ outcome: 'finished' });
      const calls = callsByRun(worker);
      expect(calls.get(before.llm.runId)).toEqual(['code', 'pr']);
      expect(calls.get(before.budget.runId)).toEqual(['reproduce', 'code', 'pr']);
      expect(calls.get(before.approval.runId)).toEqual(['reproduce', 'code', 'pr']);
      expect(calls.get(before.midStage.runId)).toEqual(['code', 'pr']);
      expect(calls.get(before.queued.runId)).toEqual(['triage', 'plan', 'reproduce', 'code', 'pr']);
      const comments = [...world.github!.comments.values()];
      expect(comments.filter((c) => c.body.includes('Autofix failed'))).toEqual([]);
      for (const issue of Object.values(ISSUE)) {
        const status = comments.filter(
          (c) => c.issueNumber === issue && c.body.includes('autofix-run:'),
        );
        expect(status).toHaveLength(1);
      }
    },
    underLoad(60_000),
  );
});
