/**
 * Publish last (issue #16): the code stage keeps its validated commit on the run's private ref;
 * only the last stage moves it to the branch. A stage placed after code that says no leaves the
 * remote as it was — no branch, no private ref, no PR — in process (`autofix run`'s runner) and
 * in the app (the BullMQ adapter, real worker, fake GitHub over HTTP). Without publish-last the
 * code stage's push would already have created the branch when the later stage refused.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRedactor } from '../../../src/artifacts/redact.js';
import { readSettings } from '../../../src/config/env.js';
import { AutofixError } from '../../../src/errors.js';
import { operatorSandbox } from '../../../src/exec/index.js';
import { parseRepoConfig } from '../../../src/config/repo-config.js';
import { localWorkspaceOptions } from '../../../src/git/local-workspace.js';
import { createLlmClient } from '../../../src/llm/create-llm-client.js';
import { createUsageTracker } from '../../../src/llm/usage-tracker.js';
import { silentLogger } from '../../../src/logger.js';
import { StagesFailed, runStages } from '../../../src/pipeline/run-stages.js';
import type { StageEnv } from '../../../src/pipeline/stages/stage-env.js';
import type { StageTable } from '../../../src/pipeline/stages/stage-fn.js';
import { PIPELINE } from '../../../src/pipeline/stages/stage-table.js';
import type { AutofixServer } from '../../../src/hosts/app/start-autofix.js';
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
import { deliver, generateAppKeyPair, labeledPayload } from '../../helpers/webhooks.js';
import { deleteKeys, REDIS_URL, SECRET, startPipelineApp, waitFor } from '../app/harness.js';
import { underLoad, WAIT_MS } from '../../helpers/deadlines.js';
import { jest } from '@jest/globals';

// A hang guard for every test of this file (test/helpers/deadlines.ts).
jest.setTimeout(underLoad(90_000));

const API_KEY = 'sk-publish-last-0123456789abcdefXY';
const json = (v: unknown): string => JSON.stringify(v);

/** Every ref of a repository with its sha: "the remote" as a later reader sees it. */
const refsOf = (gitDir: string): string =>
  execFileSync('git', ['--git-dir', gitDir, 'for-each-ref', '--format=%(objectname) %(refname)'], {
    encoding: 'utf8',
  });

/**
 * A stage after code that says no (a reviewer, a verification): before the last stage publishes,
 * it records what the remote held at that moment, then refuses.
 */
function refusingAfterCode(remote: string, seen: { refs?: string; kept?: string }): StageTable {
  return {
    ...PIPELINE,
    pr: (env: StageEnv) => {
      seen.refs = refsOf(remote);
      seen.kept = env.outputs.code?.branch.kept.ref;
      return Promise.reject(
        new AutofixError('VALIDATION_FAILED', 'the verification stage refused the change', {
          recoverable: false,
        }),
      );
    },
  };
}

let llm: FakeLlmServer;
let sample: SampleRepo;
let workdir: string;

beforeEach(async () => {
  llm = await startFakeLlmServer({ apiKey: API_KEY });
  sample = createSampleRepo();
  workdir = mkdtempSync(join(tmpdir(), 'autofix-publish-last-'));
  llm.enqueue(json(TRIAGE), json(PLAN), `\`\`\`diff\n${FIX_DIFF}\`\`\``, json(PR_SUMMARY));
});

afterEach(async () => {
  await llm.close();
  sample.cleanup();
  rmSync(workdir, { recursive: true, force: true });
});

describe('nothing reaches the remote before every stage said yes', () => {
  it('in process: a stage after code refuses → the repository keeps exactly its refs', async () => {
    const repoGit = join(sample.dir, '.git');
    const before = refsOf(repoGit);
    const settings = readSettings({
      OPENAI_BASE_URL: llm.baseUrl,
      OPENAI_API_KEY: API_KEY,
      AUTOFIX_WORKDIR: workdir,
      AUTOFIX_MODEL: 'scripted',
    });
    const config = parseRepoConfig('reproduce: off\nvalidate:\n  - node test.js\n');
    const redact = createRedactor([API_KEY]);
    const seen: { refs?: string; kept?: string } = {};
    const runId = `run-${randomUUID().slice(0, 8)}`;
    const failure = await runStages(
      {
        facts: {
          runId,
          issue: {
            repository: 'calc',
            number: 7,
            title: 'add() returns the wrong result',
            body: 'add(2, 3) is -1',
          },
          config,
          baseBranch: 'main',
          existingBranch: 'refuse',
          startOverHint: '',
        },
        workspace: localWorkspaceOptions({
          workdir,
          repoPath: sample.dir,
          baseBranch: 'main',
          branchPrefix: config.branch_prefix,
          jobId: runId,
          logger: silentLogger,
        }),
        env: { model: () => 'scripted', redact, sandbox: operatorSandbox(settings) },
        table: refusingAfterCode(repoGit, seen),
      },
      {
        llm: createLlmClient({
          baseUrl: llm.baseUrl,
          apiKey: API_KEY,
          usage: createUsageTracker({ budget: config.token_budget }),
          redact,
          log: silentLogger,
        }),
        log: silentLogger,
      },
    ).then(
      () => undefined,
      (err: unknown) => err,
    );

    expect(failure).toBeInstanceOf(StagesFailed);
    expect((failure as StagesFailed).stage).toBe('pr');
    expect(String((failure as StagesFailed).error)).toContain('refused the change');
    // The code stage did its work: validated, committed and kept — on the private ref only.
    expect(seen.kept).toBe(`refs/autofix/runs/${runId}`);
    expect(seen.refs).toContain(` refs/autofix/runs/${runId}\n`);
    expect(seen.refs).not.toContain('refs/heads/autofix/');
    // Afterwards: exactly the refs the repository had, the private ref deleted.
    expect(refsOf(repoGit)).toBe(before);
  });

  describe('in the app', () => {
    let github: FakeGitHub;
    let app: AutofixServer | undefined;
    let prefix: string;

    afterEach(async () => {
      await app?.stop(5000).catch(() => undefined);
      await github.close();
      await deleteKeys(REDIS_URL, prefix);
    });

    it('a stage after code refuses → no branch, no private ref, no PR; one failure comment', async () => {
      const keys = generateAppKeyPair();
      github = await startFakeGitHub({ appPublicKey: keys.publicKey });
      github.setPermission('maintainer', 'write');
      github.setFile('.github/autofix.yml', 'reproduce: off\nvalidate:\n  - node test.js\n');
      const bare = sample.bare().dir;
      const before = refsOf(bare);
      prefix = `autofix-publish-${randomUUID().slice(0, 8)}`;
      const seen: { refs?: string; kept?: string } = {};
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
        table: refusingAfterCode(bare, seen),
      });
      const res = await deliver(app.url, {
        event: 'issues',
        payload: labeledPayload({
          issueNumber: 7,
          title: 'add() returns the wrong result',
          body: 'add(2, 3) is -1',
          cloneUrl: bare,
        }),
        secret: SECRET,
      });
      expect(res.status).toBe(200);
      const failed = await waitFor(
        () => [...github.comments.values()].find((c) => c.body.includes('refused the change')),
        underLoad(60_000),
        'the failure comment',
      );
      expect(failed.body).toContain('VALIDATION_FAILED');
      expect(seen.refs).toMatch(/ refs\/autofix\/runs\/run-[0-9a-f]+\n/);
      expect(seen.refs).not.toContain('refs/heads/autofix/');
      // The failure hook deleted the private ref; the branch never existed.
      await waitFor(() => refsOf(bare) === before || undefined, WAIT_MS, 'the private ref deleted');
      expect(refsOf(bare)).toBe(before);
      expect(github.pulls).toHaveLength(0);
    });
  });
});
