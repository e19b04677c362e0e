/**
 * "Re-run" on the "Autofix verification" check run (issue #17, `check_run.rerequested`): the PR's
 * head verified again in a fresh workspace — the repository's commands and the reproduction its
 * commit names, in the sandbox, no model asked — and the same check run updated with the verdict,
 * on success and on failure. Requests that are not ours to honour start nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { createRedactor } from '../../../src/artifacts/redact.js';
import { readSettings } from '../../../src/config/env.js';
import { TRIGGER_QUEUE } from '../../../src/queue/trigger-types.js';
import type { AutofixServer } from '../../../src/server/start-autofix.js';
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
import { bareRemote, cloneRepo } from '../../helpers/repo-builder.js';
import {
  deliver,
  generateAppKeyPair,
  labeledPayload,
  rerequestedPayload,
} from '../../helpers/webhooks.js';
import { deleteKeys, REDIS_URL, SECRET, startPipelineApp, waitFor } from './harness.js';

const API_KEY = 'sk-rerun-e2e-key-0123456789abcdefXY';
const keys = generateAppKeyPair();
const BRANCH = 'autofix/fix/9-add-returns-the-wrong-result';

let github: FakeGitHub;
let llm: FakeLlmServer;
let app: AutofixServer;
let sample: SampleRepo;
let workdir: string;
let prefix: string;

afterEach(async () => {
  await app?.stop(5000).catch(() => undefined);
  await github?.close();
  await llm?.close();
  await deleteKeys(REDIS_URL, prefix);
  sample?.cleanup();
  rmSync(workdir, { recursive: true, force: true });
});

it('verifies the head again on a re-run request and updates the same check run, on success and on failure', async () => {
  github = await startFakeGitHub({ appPublicKey: keys.publicKey });
  github.setPermission('maintainer', 'write');
  github.setPermission('drive-by', 'read');
  github.setFile('.github/autofix.yml', 'validate:\n  - node test.js\n');
  llm = await startFakeLlmServer({ apiKey: API_KEY });
  sample = createSampleRepo();
  const bare = sample.bare().dir;
  const git = (...args: string[]): string => bareRemote(bare).git(...args);
  workdir = mkdtempSync(join(tmpdir(), 'autofix-rerun-e2e-'));
  prefix = `autofix-rerun-e2e-${randomUUID().slice(0, 8)}`;
  app = await startPipelineApp({
    settings: readSettings({
      OPENAI_BASE_URL: llm.baseUrl,
      OPENAI_API_KEY: API_KEY,
      AUTOFIX_WORKDIR: workdir,
      AUTOFIX_MODEL: 'scripted',
    }),
    github,
    privateKey: keys.privateKey,
    prefix,
    redact: createRedactor([SECRET, API_KEY]),
    retry: { attempts: 2, backoffMs: 50 },
  });
  const send = (event: string, payload: Record<string, unknown>) =>
    deliver(app.url, { event, payload, secret: SECRET });
  const triggers = new Queue(TRIGGER_QUEUE, { connection: { url: REDIS_URL }, prefix });
  const admitted = async (n: number): Promise<string[]> => {
    await waitFor(
      async () => (await triggers.getJobs(['completed'])).length >= n || undefined,
      30_000,
      `${n} triggers admitted`,
    );
    return (await triggers.getJobs(['completed'])).map((j) => String(j.returnvalue));
  };

  // The bot's PR, with a reproduction committed with the fix and its verification.
  const repro = {
    path: 'test/issue-9-add.test.js',
    content:
      "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\n" +
      "import { add } from '../src/math.js';\n\ntest('add(2, 3) is 5 (#9)', () => {\n  assert.equal(add(2, 3), 5);\n});\n",
    command: 'node --test test/issue-9-add.test.js',
    test_name: 'add(2, 3) is 5 (#9)',
  };
  const title = 'add() returns the wrong result';
  llm.enqueue(
    JSON.stringify(TRIAGE),
    JSON.stringify(PLAN),
    JSON.stringify(repro),
    FIX_DIFF,
    JSON.stringify(PR_SUMMARY),
  );
  await send(
    'issues',
    labeledPayload({ issueNumber: 9, title, body: 'add(2, 3) is -1', cloneUrl: bare }),
  );
  const pull = await waitFor(() => github.pulls[0], 30_000, 'the pull request');
  const run = await waitFor(() => github.checkRuns[0], 10_000, 'the check run');
  const tip = git('rev-parse', BRANCH);
  expect(run).toMatchObject({ head_sha: tip, conclusion: 'success' });
  expect(git('log', '-1', '--format=%B', BRANCH)).toContain(
    'Autofix-Reproduction: node --test test/issue-9-add.test.js',
  );
  const calls = llm.chatRequests().length;
  await admitted(1);

  const rerun = (
    o: { id?: number; sha?: string; sender?: string; app?: { id: number; slug: string } } = {},
  ) =>
    send(
      'check_run',
      rerequestedPayload({
        checkRunId: o.id ?? run.id,
        headSha: o.sha ?? tip,
        pull: { number: pull.number, headRef: BRANCH },
        cloneUrl: bare,
        sender: o.sender ?? 'maintainer',
        ...(o.app ? { app: o.app } : {}),
      }),
    );
  const finished = (n: number) => () =>
    [...github.comments.values()].filter(
      (c) => c.issueNumber === pull.number && /Autofix verified [0-9a-f]{7} again/.test(c.body),
    ).length >= n || undefined;

  // Success: the same check run, updated; the commands and the reproduction ran again.
  expect((await rerun()).status).toBe(200);
  await waitFor(finished(1), 30_000, 'the re-run to end');
  expect(github.checkRuns).toHaveLength(1);
  expect(run.history).toHaveLength(2);
  expect(run.conclusion).toBe('success');
  expect(run.output.summary).toContain('Re-run:');
  expect(run.output.summary).toContain('`node --test test/issue-9-add.test.js`');
  expect(run.output.summary).toMatch(/node test\.js/);
  expect(llm.chatRequests()).toHaveLength(calls);
  expect(git('rev-parse', BRANCH)).toBe(tip); // nothing written

  // A maintainer's commit breaks add() again; its check run is re-run: failure, with the reason.
  const clone = cloneRepo(bare, join(sample.root, 'pr-clone'), { branch: BRANCH });
  clone.commit('break it', {
    'src/math.js':
      'export function add(a, b) {\n  return a - b;\n}\n\nexport function double(x) {\n  return x * 2;\n}\n',
  });
  clone.git('push', '--quiet', 'origin', BRANCH);
  const broken = git('rev-parse', BRANCH);
  const own = github.addCheckRun({
    name: 'Autofix verification',
    head_sha: broken,
    status: 'completed',
    conclusion: 'success',
  });
  await rerun({ id: own.id, sha: broken });
  await waitFor(finished(2), 30_000, 'the second re-run to end');
  expect(own.conclusion).toBe('failure');
  expect(own.output.title).toMatch(/validation command.* failed/);
  expect(own.output.text ?? '').toMatch(/node test\.js|AssertionError/);
  expect(llm.chatRequests()).toHaveLength(calls);

  // Not ours to honour: someone without write access, another app's check of the same name.
  await rerun({ sender: 'drive-by' });
  await rerun({ app: { id: 99, slug: 'impostor' } });
  const results = await admitted(5);
  expect(results.filter((r) => r === 'unauthorized')).toHaveLength(1);
  expect(results.filter((r) => r === 'ignored')).toHaveLength(1);
  expect(run.history).toHaveLength(2);
  await triggers.close();
}, 120_000);
