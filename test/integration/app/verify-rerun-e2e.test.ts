/**
 * "Re-run" on the "Autofix verification" check run (issue #17, `check_run.rerequested`): the PR's
 * head verified again in a fresh workspace — the repository's commands and the reproduction its
 * commit names, in the sandbox, no model asked — and the same check run updated with the verdict,
 * on success and on failure. Requests that are not ours to honour start nothing.
 */
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { TRIGGER_QUEUE } from '../../../src/intake/trigger-types.js';
import { FIX_DIFF, PLAN, PR_SUMMARY, TRIAGE } from '../../helpers/sample-repo.js';
import { cloneRepo } from '../../helpers/repo-builder.js';
import { generateAppKeyPair, labeledPayload, rerequestedPayload } from '../../helpers/webhooks.js';
import { REDIS_URL, startPipelineEnv, waitFor, type PipelineEnv } from './harness.js';
import { underLoad, WAIT_MS } from '../../helpers/deadlines.js';
import { jest } from '@jest/globals';

// A hang guard for every test of this file (test/helpers/deadlines.ts).
jest.setTimeout(underLoad(120_000));

const keys = generateAppKeyPair();
const BRANCH = 'autofix/fix/9-add-returns-the-wrong-result';

let env: PipelineEnv | undefined;
let triggers: Queue | undefined;
afterEach(async () => {
  // Closed here too, so that a failed assertion does not leave jest waiting on its connection.
  await triggers?.close();
  await env?.close();
});

it('verifies the head again on a re-run request and updates the same check run, on success and on failure', async () => {
  env = await startPipelineEnv({
    keys,
    name: 'rerun-e2e',
    config: 'validate:\n  - node test.js\n',
  });
  const { github, llm, bare, git, send, sample, runsEnded } = env;
  github.setPermission('drive-by', 'read');
  triggers = new Queue(TRIGGER_QUEUE, { connection: { url: REDIS_URL }, prefix: env.prefix });
  const queue = triggers;
  const admitted = async (n: number): Promise<string[]> => {
    await waitFor(
      async () => (await queue.getJobs(['completed'])).length >= n || undefined,
      underLoad(30_000),
      `${n} triggers admitted`,
    );
    return (await queue.getJobs(['completed'])).map((j) => String(j.returnvalue));
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
  // A run's last step before it releases the issue is its 🚀 (awaited): slowed here, as a loaded
  // machine slows it, so that a re-run sent the moment the check run is done would find the
  // issue busy (the cause of this test's one failure in CI).
  github.disruptNext({ method: 'POST', path: /\/reactions$/, times: 20, delayMs: 1_500 });
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
  const pull = await waitFor(() => github.pulls[0], underLoad(30_000), 'the pull request');
  const run = await waitFor(() => github.checkRuns[0], WAIT_MS, 'the check run');
  const tip = git('rev-parse', BRANCH);
  expect(run).toMatchObject({ head_sha: tip, conclusion: 'success' });
  expect(git('log', '-1', '--format=%B', BRANCH)).toContain(
    'Autofix-Reproduction: node --test test/issue-9-add.test.js',
  );
  const calls = llm.chatRequests().length;
  await admitted(1);
  // The run still writes its last status and reaction after the check run: a re-run requested
  // before it has released the issue is answered "busy", and never runs.
  await runsEnded();

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
  await waitFor(finished(1), underLoad(30_000), 'the re-run to end');
  await runsEnded();
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
  await waitFor(finished(2), underLoad(30_000), 'the second re-run to end');
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
});
