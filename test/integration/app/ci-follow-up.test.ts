/**
 * CI follow-up admission (issue #17), through the app's webhook endpoint, real Redis and the fake
 * GitHub over HTTP: which CI completions on a PR start a repair round, and which end in one note
 * or nothing. The stages are the queue's test stages; the real pipeline's round is in
 * ci-follow-up-e2e.test.ts.
 */
import type { FakeCheckRun } from '../../helpers/fake-github.js';
import { actionsLog } from '../../helpers/actions-log.js';
import { ciCompletedPayload, type CiEventName } from '../../helpers/webhooks.js';
import { startHarness, waitFor, type Harness } from './harness.js';
import { WAIT_MS } from '../../helpers/deadlines.js';

const BRANCH = 'autofix/fix/9-add-returns-the-wrong-result';
const HEAD = 'a'.repeat(40);
const BASE = 'b'.repeat(40);
const ACTIONS = { id: 15368, slug: 'github-actions' };

let h: Harness;
let commits: { sha: string; message: string }[];

async function start(config = 'ci_checks: all\n'): Promise<void> {
  h = await startHarness();
  h.github.setFile('.github/autofix.yml', config);
  commits = [{ sha: HEAD, message: 'fix(math): return the sum\n\nAutofix-Issue: 9\n' }];
  h.github.setRepoReader({
    refSha: (ref) => (ref === BRANCH ? HEAD : ref === 'main' ? BASE : undefined),
    commits: () => commits,
  });
  h.github.setIssue(9, 'add() returns the wrong result', 'add(2, 3) is -1');
}

afterEach(async () => {
  await h?.close();
});

function botPull(): number {
  return h.github.addPull({
    title: 'fix(math): return the sum',
    body: 'Fixes #9',
    head: BRANCH,
    base: 'main',
    draft: false,
    author: h.github.botLogin,
  }).number;
}

function check(
  name: string,
  conclusion: string | null,
  o: Partial<FakeCheckRun> & { sha?: string } = {},
): FakeCheckRun {
  return h.github.addCheckRun({
    name,
    head_sha: o.sha ?? HEAD,
    status: conclusion === null ? 'in_progress' : 'completed',
    conclusion,
    app: ACTIONS,
    ...o,
  });
}

const deliverCi = (pr: number, event: CiEventName = 'check_suite', extra = {}) =>
  h.send(
    event,
    ciCompletedPayload(event, {
      headSha: HEAD,
      pulls: [{ number: pr, headRef: BRANCH, baseSha: BASE }],
      ...extra,
    }),
  );

const results = async (): Promise<string[]> =>
  (await h.triggers()).map((j) => String(j.returnvalue)).sort();
const rounds = () => h.stages.calls.filter((c) => c.stage === 'triage');
const notes = (pr: number) =>
  [...h.github.comments.values()].filter(
    (c) => c.issueNumber === pr && c.body.startsWith('<!-- autofix-reply:'),
  );

describe('CI follow-up: admission', () => {
  it('starts one repair round per failing head with the cropped log, however many events report it', async () => {
    await start();
    const pr = botPull();
    const failing = check('test', 'failure', {
      log: actionsLog('AssertionError: expected add(2, 3) to be 5, got -1'),
    });
    check('lint', 'success');
    for (const event of ['check_run', 'check_suite', 'workflow_run'] as const) {
      expect((await deliverCi(pr, event)).status).toBe(200);
    }
    await h.admitted();
    await waitFor(() => rounds().length === 1 || undefined, WAIT_MS, 'the round to start');
    // One PR's admissions take turns: the first starts the round, the others find it.
    expect(await results()).toEqual(['duplicate', 'duplicate', 'started']);
    expect(await h.jobs('triage')).toHaveLength(1);

    const job = rounds()[0]!.job;
    expect(job.trigger).toMatchObject({
      kind: 'ci-failure',
      prNumber: pr,
      branch: BRANCH,
      headSha: HEAD,
      round: 1,
      attempts: 2,
    });
    expect(job.facts).toMatchObject({
      conversation: pr,
      feedback: { prNumber: pr, branch: BRANCH },
      existingBranch: 'extend',
    });
    const [round, signature] = job.facts.commitTrailers ?? [];
    expect(round).toEqual({ key: 'Autofix-CI-Round', value: '1' });
    expect(signature?.key).toBe('Autofix-CI-Failure');
    expect(signature?.value).toMatch(/^[0-9a-f]{16}$/);
    // The run belongs to the issue the branch names.
    expect(job.issue).toMatchObject({ number: 9, title: 'add() returns the wrong result' });
    if (job.trigger.kind !== 'ci-failure') throw new Error('not a CI round');
    const [failure] = job.trigger.failures;
    expect(failure).toMatchObject({ name: 'test', source: 'log', step: 'npm test' });
    // Cropped to the failing step: the failure and its error line, not the setup's noise.
    expect(failure!.excerpt).toContain('AssertionError: expected add(2, 3) to be 5, got -1');
    expect(failure!.excerpt).toContain('Error: Process completed with exit code 1.');
    expect(failure!.excerpt).not.toContain('Download action repository');
    expect(failure!.excerpt).not.toMatch(/2026-11-25T/);
    expect(failure!.excerpt).not.toContain('\u001b[');
    // The log was read through the Actions API (the check run's id is its job's).
    expect(
      h.github.calls('GET', `/repos/Codertocat/Hello-World/actions/jobs/${failing.id}/logs`),
    ).toHaveLength(3);
    expect(job.status.trigger).toMatch(/CI follow-up, round 1 of 2/);
  });

  it('waits while a counted check still runs, and starts when the last one completes', async () => {
    await start();
    const pr = botPull();
    check('test', 'failure', { log: actionsLog('Error: boom') });
    const slow = check('build', null);
    await deliverCi(pr, 'check_run');
    await h.admitted();
    expect(await results()).toEqual(['waiting']);
    expect(rounds()).toHaveLength(0);

    Object.assign(slow, { status: 'completed', conclusion: 'success' });
    await deliverCi(pr, 'check_run', { conclusion: 'success' });
    await h.admitted();
    await waitFor(() => rounds().length === 1 || undefined, WAIT_MS, 'the round to start');
    expect(await results()).toEqual(['started', 'waiting']);
  });

  it('leaves a check that fails on the base too alone, and says so once', async () => {
    await start();
    const pr = botPull();
    check('test', 'failure', { log: actionsLog('Error: flaky network') });
    check('test', 'failure', { sha: BASE });
    await deliverCi(pr, 'check_suite');
    await deliverCi(pr, 'workflow_run');
    await h.admitted();
    expect(await results()).toEqual(['not-ours', 'not-ours']);
    expect(rounds()).toHaveLength(0);
    const said = notes(pr);
    expect(said).toHaveLength(1);
    expect(said[0]!.body).toContain('`test` fails on `main`');
    // No log was read for a failure that is not ours.
    expect(h.github.calls('GET', /\/actions\/jobs\/\d+\/logs$/)).toHaveLength(0);
  });

  it("reads another CI app's failure from its check run's output and annotations", async () => {
    await start();
    const pr = botPull();
    check('ci/circleci: test', 'failure', {
      app: { id: 18001, slug: 'circleci-checks' },
      output: {
        title: '1 test failed',
        summary: 'Job failed after 2m',
        text: 'FAILED tests/math.test.js',
      },
      annotations: [
        {
          path: 'src/math.js',
          start_line: 2,
          annotation_level: 'failure',
          message: 'expected 5, got -1',
        },
      ],
    });
    await deliverCi(pr);
    await h.admitted();
    await waitFor(() => rounds().length === 1 || undefined, WAIT_MS, 'the round to start');
    const t = rounds()[0]!.job.trigger;
    if (t.kind !== 'ci-failure') throw new Error('not a CI round');
    expect(t.failures[0]).toMatchObject({ name: 'ci/circleci: test', source: 'check-output' });
    expect(t.failures[0]!.excerpt).toContain('FAILED tests/math.test.js');
    expect(t.failures[0]!.excerpt).toContain('src/math.js:2: failure: expected 5, got -1');
    expect(h.github.calls('GET', /\/actions\/jobs\/\d+\/logs$/)).toHaveLength(0);
  });

  it('counts only required checks by default', async () => {
    await start('{}\n');
    h.github.setRequiredChecks('main', ['build']);
    const pr = botPull();
    check('lint', 'failure', { log: actionsLog('lint: missing semicolon') });
    check('build', 'success');
    await deliverCi(pr);
    await h.admitted();
    expect(await results()).toEqual(['ignored']);

    // Once a required check fails, it is the one repaired (and only its log is read).
    check('build', 'failure', { log: actionsLog('tsc: error TS2322') });
    await deliverCi(pr);
    await h.admitted();
    await waitFor(() => rounds().length === 1 || undefined, WAIT_MS, 'the round to start');
    const t = rounds()[0]!.job.trigger;
    expect(t.kind === 'ci-failure' && t.failures.map((f) => f.name)).toEqual(['build']);
  });

  it('retries a rate-limited read of the required checks instead of reading it as none required', async () => {
    await start('{}\n');
    h.github.setRequiredChecks('main', ['build']);
    const pr = botPull();
    check('build', 'failure', { log: actionsLog('tsc: error TS2322') });
    // GitHub's secondary rate limit answers 403: an outage, not "no protection".
    h.github.disruptNext({
      method: 'GET',
      path: '/repos/Codertocat/Hello-World/branches/main',
      times: 1,
      status: 403,
      message: 'You have exceeded a secondary rate limit',
    });
    await deliverCi(pr);
    await h.admitted();
    await waitFor(() => rounds().length === 1 || undefined, WAIT_MS, 'the round to start');
    expect(await results()).toEqual(['started']);
    expect(h.github.calls('GET', '/repos/Codertocat/Hello-World/branches/main')).toHaveLength(2);
  });

  it('stops at ci_fix_attempts, and when a round fails the same way as the last, with one note each', async () => {
    await start('ci_checks: all\nci_fix_attempts: 2\n');
    const pr = botPull();
    const log = actionsLog('AssertionError: expected 5, got -1');
    check('test', 'failure', { log });
    await deliverCi(pr);
    await h.admitted();
    await waitFor(() => rounds().length === 1 || undefined, WAIT_MS, 'round 1');
    const signature = rounds()[0]!.job.facts.commitTrailers![1]!.value;

    // Round 1's commit is on the PR and its CI failed alike (other times, durations, paths).
    const repeatLog = log.replace(/10:00:/g, '11:42:').replace('test.js:4:8', 'test.js:4:9');
    commits.push({
      sha: 'c'.repeat(40),
      message: `fix(math): repair CI\n\nAutofix-CI-Round: 1\nAutofix-CI-Failure: ${signature}\n`,
    });
    const head2 = 'c'.repeat(40);
    h.github.setRepoReader({
      refSha: (ref) => (ref === BRANCH ? head2 : ref === 'main' ? BASE : undefined),
      commits: () => commits,
    });
    check('test', 'failure', { sha: head2, log: repeatLog });
    const send2 = () =>
      h.send(
        'check_suite',
        ciCompletedPayload('check_suite', {
          headSha: head2,
          pulls: [{ number: pr, headRef: BRANCH, baseSha: BASE }],
        }),
      );
    await send2();
    await send2();
    await h.admitted();
    expect((await results()).filter((r) => r === 'repeated')).toHaveLength(2);
    expect(rounds()).toHaveLength(1);
    expect(notes(pr)).toHaveLength(1);
    expect(notes(pr)[0]!.body).toMatch(/failed the same way after round 1/);

    // Two rounds on the PR: the limit, whatever the failure.
    commits.push({
      sha: 'd'.repeat(40),
      message: 'fix: again\n\nAutofix-CI-Round: 2\nAutofix-CI-Failure: 0123456789abcdef\n',
    });
    const head3 = 'd'.repeat(40);
    h.github.setRepoReader({
      refSha: (ref) => (ref === BRANCH ? head3 : ref === 'main' ? BASE : undefined),
      commits: () => commits,
    });
    check('test', 'failure', { sha: head3, log: actionsLog('TypeError: something else') });
    await h.send(
      'check_suite',
      ciCompletedPayload('check_suite', {
        headSha: head3,
        pulls: [{ number: pr, headRef: BRANCH, baseSha: BASE }],
      }),
    );
    await h.admitted();
    expect(await results()).toContain('limit');
    expect(rounds()).toHaveLength(1);
    expect(
      notes(pr)
        .map((n) => n.body)
        .join('\n'),
    ).toMatch(/after 2 repair rounds, the most `ci_fix_attempts` allows/);
  });

  it('ignores what is not its business: a stale head, a PR it did not open, its own check, success', async () => {
    await start();
    const pr = botPull();
    const human = h.github.addPull({
      title: 'manual',
      body: '',
      head: BRANCH,
      base: 'main',
      draft: false,
      author: 'maintainer',
    }).number;
    // The bot's own verification check failing is not CI to repair.
    check('Autofix verification', 'failure', { app: { id: 1, slug: 'autofix-test' } });
    await deliverCi(pr);
    await deliverCi(human);
    // An older head than the PR's.
    await h.send(
      'check_suite',
      ciCompletedPayload('check_suite', {
        headSha: 'e'.repeat(40),
        pulls: [{ number: pr, headRef: BRANCH, baseSha: BASE }],
      }),
    );
    // A push without a PR, and a branch outside the bot's prefix once the config is known.
    await h.send('check_suite', ciCompletedPayload('check_suite', { headSha: HEAD, pulls: [] }));
    await h.admitted();
    expect(await results()).toEqual(['ignored', 'ignored', 'ignored']);
    expect(rounds()).toHaveLength(0);
    expect(notes(pr)).toHaveLength(0);
  });

  it('is off with ci_fix_attempts: 0', async () => {
    await start('ci_checks: all\nci_fix_attempts: 0\n');
    const pr = botPull();
    check('test', 'failure', { log: actionsLog('Error: boom') });
    await deliverCi(pr);
    await h.admitted();
    expect(await results()).toEqual(['ignored']);
    expect(h.github.calls('GET', /check-runs$/)).toHaveLength(0);
  });
});
