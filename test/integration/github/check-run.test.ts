/**
 * `publishCheckRun` against the fake GitHub over real HTTP: the request payload, one run per
 * head commit (a second publish updates it), annotations not doubled, another app's run of the
 * same name left alone, and a refusal that never throws.
 */
import type { CommandResult } from '../../../src/contracts.js';
import {
  CHECK_RUN_NAME,
  publishCheckRun,
  type CheckRunInput,
} from '../../../src/github/check-run.js';
import { silentLogger } from '../../../src/logger.js';
import { startFakeGitHub, type FakeGitHub } from '../../helpers/fake-github.js';
import { testClient } from '../../helpers/github-client.js';

const TOKEN = 'ghs_testtoken000000000000000000000';
const WT = '/tmp/autofix/jobs/run-9/wt';
const SHA = 'c0ffee'.padEnd(40, '0');
const repo = { owner: 'octo', repo: 'app' };
const APP_ID = 4242;
const NOW = () => new Date('2026-01-02T03:04:05.000Z');

let github: FakeGitHub;

beforeEach(async () => {
  github = await startFakeGitHub({ appId: APP_ID });
  github.tokens.add(TOKEN);
});
afterEach(async () => {
  await github.close();
});

const failing: CommandResult = {
  command: 'npx tsc --noEmit',
  exit_code: 2,
  stdout: `${WT}/src/sum.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\n`,
  stderr: '',
  duration_ms: 3100,
  timed_out: false,
};

function input(over: Partial<CheckRunInput> = {}): CheckRunInput {
  return {
    headSha: SHA,
    runId: 'run-9',
    validation: [failing],
    preexisting: [],
    changes: [{ path: 'src/sum.ts', operation: 'modified' }],
    planFiles: ['src/sum.ts'],
    amendments: [],
    sandbox: 'bwrap',
    usage: { totalTokens: 900, costUsd: 0.002 },
    worktree: WT,
    repo,
    issueNumber: 9,
    detailsUrl: 'https://github.com/octo/app/pull/10',
    ...over,
  };
}

const publish = (over: Partial<CheckRunInput> = {}) =>
  publishCheckRun(testClient(github.apiUrl), repo, input(over), silentLogger, {
    appId: APP_ID,
    now: NOW,
  });

describe('publishCheckRun', () => {
  it('creates the check run on the head commit with the rendered payload', async () => {
    const published = await publish();
    expect(published).toMatchObject({ created: true, conclusion: 'failure' });

    const [list] = github.calls('GET', `/repos/octo/app/commits/${SHA}/check-runs`);
    expect(list!.query).toMatchObject({
      check_name: CHECK_RUN_NAME,
      app_id: String(APP_ID),
      filter: 'latest',
    });
    const [post] = github.calls('POST', '/repos/octo/app/check-runs');
    const body = post!.body as Record<string, unknown> & {
      output: { title: string; summary: string; text: string; annotations: unknown[] };
    };
    expect(body).toMatchObject({
      name: 'Autofix verification',
      head_sha: SHA,
      status: 'completed',
      conclusion: 'failure',
      external_id: 'run-9',
      details_url: 'https://github.com/octo/app/pull/10',
      completed_at: '2026-01-02T03:04:05.000Z',
    });
    expect(body.output.title).toBe('1 validation command failed');
    expect(body.output.summary).toContain('| `npx tsc --noEmit` | ❌ failed | 2 | 3.1 s |');
    expect(body.output.summary).toContain('- **Run:** `run-9`');
    expect(body.output.text).toContain("Type 'string' is not assignable");
    expect(body.output.annotations).toEqual([
      {
        path: 'src/sum.ts',
        start_line: 3,
        end_line: 3,
        annotation_level: 'failure',
        message: "Type 'string' is not assignable to type 'number'.",
        title: 'TS2322',
      },
    ]);
    expect(github.checkRuns).toHaveLength(1);
    expect(github.checkRuns[0]).toMatchObject({
      id: published!.id,
      status: 'completed',
      conclusion: 'failure',
      app: { id: APP_ID },
    });
  });

  it('updates its run on the same head commit instead of creating a second one', async () => {
    const first = await publish();
    const second = await publish({ validation: [{ ...failing, exit_code: 0, stdout: '' }] });
    expect(second).toEqual({
      id: first!.id,
      url: expect.any(String) as string,
      created: false,
      conclusion: 'success',
    });
    expect(github.calls('POST', '/repos/octo/app/check-runs')).toHaveLength(1);
    const [patch] = github.calls('PATCH', `/repos/octo/app/check-runs/${first!.id}`);
    expect(patch!.body).toMatchObject({
      name: 'Autofix verification',
      status: 'completed',
      conclusion: 'success',
      completed_at: '2026-01-02T03:04:05.000Z',
      output: { title: 'Verified: 1 validation command passed', annotations: [] },
    });
    expect(patch!.body).not.toHaveProperty('head_sha');
    expect(github.checkRuns).toHaveLength(1);
    expect(github.checkRuns[0]).toMatchObject({ conclusion: 'success' });
    expect(github.checkRuns[0]!.output.title).toBe('Verified: 1 validation command passed');
  });

  it('does not send again the annotations the run already has (GitHub appends them)', async () => {
    await publish();
    const again = await publish();
    expect(again).toMatchObject({ created: false, conclusion: 'failure' });
    const [patch] = github.calls('PATCH', /^\/repos\/octo\/app\/check-runs\/\d+$/);
    expect((patch!.body as { output: { annotations: unknown[] } }).output.annotations).toEqual([]);
    expect(github.checkRuns[0]!.annotations).toHaveLength(1);
  });

  it("creates its own run beside another app's run of the same name, and one per commit", async () => {
    github.addCheckRun({
      name: CHECK_RUN_NAME,
      head_sha: SHA,
      app: { id: 7, slug: 'someone-else' },
    });
    const mine = await publish();
    expect(mine).toMatchObject({ created: true });
    // Without the app id the other app's run is found first; GitHub refuses the update (403).
    const other = 'bad'.padEnd(40, '0');
    github.addCheckRun({ name: CHECK_RUN_NAME, head_sha: other, app: { id: 7, slug: 'x' } });
    const fallback = await publishCheckRun(
      testClient(github.apiUrl),
      repo,
      input({ headSha: other }),
      silentLogger,
    );
    expect(fallback).toMatchObject({ created: true });
    expect(github.checkRuns.filter((r) => r.app.id === APP_ID).map((r) => r.head_sha)).toEqual([
      SHA,
      other,
    ]);
  });

  it('logs and gives undefined when GitHub refuses (no checks: write)', async () => {
    github.failNext('POST', '/repos/octo/app/check-runs', 403);
    const warnings: unknown[] = [];
    const log = { ...silentLogger, warn: (o: unknown) => void warnings.push(o) };
    await expect(
      publishCheckRun(testClient(github.apiUrl), repo, input(), log, { appId: APP_ID }),
    ).resolves.toBeUndefined();
    expect(warnings).toHaveLength(1);
  });
});
