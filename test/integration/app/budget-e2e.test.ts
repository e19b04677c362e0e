/**
 * Issue #36's goal, end to end: the real pipeline against the fake GitHub and the scripted LLM
 * over HTTP, with a priced model (`MODEL_PRICES_FILE`) and `cost_budget_usd` in the repository's
 * config. The run parks when its next call would cross the cap, with the sentence in the status
 * comment; a read-only user's `/autofix continue` does nothing; a maintainer's finishes it with
 * no stage before the parked one run again and no model call repeated.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRedactor } from '../../../src/artifacts/redact.js';
import { readSettings } from '../../../src/config/env.js';
import type { AutofixServer } from '../../../src/hosts/app/start-autofix.js';
import { createRedisRunStore } from '../../../src/runs/redis-run-store.js';
import { Redis } from 'ioredis';
import { Queue } from 'bullmq';
import { TRIGGER_QUEUE } from '../../../src/intake/trigger-types.js';
import { startFakeGitHub, type FakeGitHub } from '../../helpers/fake-github.js';
import { startFakeLlmServer, type FakeLlmServer } from '../../helpers/fake-llm-server.js';
import {
  createSampleRepo,
  FIX_DIFF,
  PLAN,
  PR_SUMMARY,
  TRIAGE,
  type SampleRepo,
} from '../../helpers/sample-repo.js';
import {
  commentPayload,
  deliver,
  generateAppKeyPair,
  labeledPayload,
} from '../../helpers/webhooks.js';
import { underLoad } from '../../helpers/deadlines.js';
import { deleteKeys, REDIS_URL, SECRET, startPipelineApp, waitFor } from './harness.js';

const API_KEY = 'sk-budget-e2e-key-0123456789abcdefXY';
const keys = generateAppKeyPair();

/** $100 per million prompt tokens, completions free: a call of 10,000 prompt tokens costs $1.00. */
const PRICES = { scripted: { inputPerMillion: 100, outputPerMillion: 0 } };
const DOLLAR = { prompt_tokens: 10_000, completion_tokens: 10 };

let github: FakeGitHub;
let llm: FakeLlmServer;
let app: AutofixServer;
let sample: SampleRepo;
let dir: string;
let prefix: string;
let redis: Redis;

beforeAll(async () => {
  github = await startFakeGitHub({ appPublicKey: keys.publicKey });
  github.setPermission('maintainer', 'write');
  github.setPermission('reader', 'read');
  github.setFile(
    '.github/autofix.yml',
    'reproduce: off\nvalidate:\n  - node test.js\nsandbox: auto\ncost_budget_usd: 2.5\n',
  );
  llm = await startFakeLlmServer({ apiKey: API_KEY });
  sample = createSampleRepo();
  dir = mkdtempSync(join(tmpdir(), 'autofix-budget-e2e-'));
  writeFileSync(join(dir, 'prices.json'), JSON.stringify(PRICES));
  prefix = `autofix-budget-${randomUUID().slice(0, 8)}`;
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  app = await startPipelineApp({
    settings: readSettings({
      OPENAI_BASE_URL: llm.baseUrl,
      OPENAI_API_KEY: API_KEY,
      AUTOFIX_WORKDIR: join(dir, 'work'),
      AUTOFIX_MODEL: 'scripted',
      MODEL_PRICES_FILE: join(dir, 'prices.json'),
    }),
    github,
    privateKey: keys.privateKey,
    prefix,
    redact: createRedactor([SECRET, API_KEY]),
    retry: { attempts: 2, backoffMs: 50 },
  });
});

afterAll(async () => {
  await app?.stop(5000).catch(() => undefined);
  await github?.close();
  await llm?.close();
  redis?.disconnect();
  await deleteKeys(REDIS_URL, prefix);
  sample?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** Every trigger sent so far went through admission (finished, one way or the other). */
async function triggersDone(): Promise<void> {
  const triggers = new Queue(TRIGGER_QUEUE, { connection: { url: REDIS_URL }, prefix });
  try {
    await waitFor(
      async () => {
        const counts = await triggers.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
        const done = await triggers.getJobCounts('completed');
        return (
          (Object.values(counts).every((n) => n === 0) && (done.completed ?? 0) >= 2) || undefined
        );
      },
      undefined,
      'admission of the triggers sent',
    );
  } finally {
    await triggers.close();
  }
}

const send = (event: string, payload: Record<string, unknown>) =>
  deliver(app.url, { event, payload, secret: SECRET });
const status = (): string | undefined =>
  [...github.comments.values()].find((c) => c.body.includes('autofix-run:'))?.body;

it('parks at its cost cap after plan, and /autofix continue finishes it without repeating a stage or a call', async () => {
  llm.enqueue(
    { content: JSON.stringify(TRIAGE), usage: DOLLAR },
    { content: JSON.stringify(PLAN), usage: DOLLAR },
  );
  await send(
    'issues',
    labeledPayload({
      issueNumber: 9,
      title: 'add() returns the wrong result',
      body: 'add(2, 3) is -1',
      cloneUrl: sample.bare().dir,
    }),
  );
  const paused = await waitFor(
    () => status()?.includes('paused at') && status(),
    underLoad(30_000),
    'the paused status comment',
  );
  expect(paused).toContain(
    'paused at $2.00 of $2.50 after plan; `/autofix continue` allows up to $2.50 more',
  );
  const runs = createRedisRunStore(redis, prefix);
  const [runId] = await runs.parked();
  const parked = (await runs.get(runId!))!;
  expect(parked.parked).toMatchObject({ reason: 'budget', resumeAt: 'reproduce' });
  expect(parked.usage.costUsd).toBeCloseTo(2, 5);
  expect(parked.stages.plan).toMatchObject({ state: 'done', models: ['scripted'] });
  expect(parked.stages.plan!.usage!.costUsd).toBeCloseTo(1, 5);
  expect(llm.chatRequests()).toHaveLength(2);

  // A read-only user: nothing happens.
  await send(
    'issue_comment',
    commentPayload({ issueNumber: 9, comment: '/autofix continue', sender: 'reader' }),
  );
  await triggersDone();
  expect((await runs.get(runId!))!.parked).toBeDefined();
  expect(
    github.calls('POST', /\/issues\/9\/comments$/).map((c) => JSON.stringify(c.body)),
  ).not.toContain(expect.stringContaining('no paused'));

  // A maintainer: the run goes on from reproduce; code and pr call the model once each.
  llm.enqueue({ content: FIX_DIFF, usage: DOLLAR }, { content: JSON.stringify(PR_SUMMARY) });
  await send('issue_comment', commentPayload({ issueNumber: 9, comment: '/autofix continue' }));
  const pull = await waitFor(() => github.pulls[0], underLoad(30_000), 'the pull request');
  expect(pull.title).toBe('fix(math): return the sum from add()');
  const done = await waitFor(async () => {
    const run = await runs.get(runId!);
    return run?.ending ? run : undefined;
  });
  expect(done.ending).toMatchObject({ outcome: 'finished' });
  expect(done.extraBudgetUsd).toBe(2.5);
  expect(done.stages.triage!.attempts).toBe(1);
  expect(done.stages.plan!.attempts).toBe(1);
  expect(done.resumes).toHaveLength(1);
  // Four calls in all: triage, plan, code, pr: none asked twice.
  const systems = llm.chatRequests().map((r) => String(r.body.messages[0]!.content).slice(0, 40));
  expect(systems).toHaveLength(4);
  expect(new Set(systems).size).toBe(4);
});
