import { silentLogger } from '../../../src/logger.js';
import { admitPullOutcome } from '../../../src/intake/admit-pull-outcome.js';
import { createMetrics } from '../../../src/scheduler/metrics.js';
import type { PullClosed, TriggerJobData } from '../../../src/intake/trigger-types.js';
import { testClient } from '../../helpers/github-client.js';
import { useHttpMock } from '../../helpers/http-mock.js';
import { createMemoryPrOutcomes } from '../../helpers/memory-pr-outcomes.js';

const http = useHttpMock();
const BOT = 'autofix[bot]';
const SHA = 'c'.repeat(40);

const identity = {
  slug: () => Promise.resolve('autofix'),
  botLogin: () => Promise.resolve(BOT),
};

function trigger(
  closed: Partial<PullClosed> = {},
  body = '',
): TriggerJobData & { closed: PullClosed } {
  return {
    deliveryId: 'd',
    triggerKey: 'closed:1#9@t',
    event: 'pull_request.closed',
    installationId: 1,
    repository: {
      name: 'app',
      full_name: 'octo/app',
      clone_url: '',
      default_branch: 'main',
      owner: { login: 'octo' },
    },
    issue: { number: 9, title: 't', body, isPullRequest: true },
    sender: 'maintainer',
    receivedAt: 0,
    closed: {
      prNumber: 9,
      merged: true,
      mergeSha: SHA,
      at: 1000,
      author: BOT,
      head: { ref: 'autofix/fix/3-x', repo: 'octo/app' },
      ...closed,
    },
  };
}

const commits = (...messages: string[]) =>
  http
    .api()
    .get('/repos/octo/app/pulls/9/commits')
    .query(true)
    .reply(
      200,
      messages.map((message, i) => ({ sha: `${i}`.repeat(40), commit: { message } })),
    );

describe('admission of a closed pull request', () => {
  it("records the app's merged PR under its run once, and counts it once", async () => {
    const outcomes = createMemoryPrOutcomes();
    const metrics = createMetrics();
    const deps = { identity, outcomes, metrics };
    commits('fix: x\n\nAutofix-Run: run-1', 'fix: y\n\nAutofix-Run: run-2');
    commits('fix: x\n\nAutofix-Run: run-1');
    const admit = () => admitPullOutcome(deps, trigger(), testClient(), silentLogger, 'autofix/');
    expect(await admit()).toBe('recorded');
    expect(await admit()).toBe('known');
    expect(await outcomes.ofRun('run-1')).toMatchObject({
      outcome: 'merged',
      mergeSha: SHA,
      pr: 9,
    });
    const metric = await metrics.registry.getSingleMetricAsString('autofix_pr_outcomes_total');
    expect(metric).toContain('autofix_pr_outcomes_total{outcome="merged"} 1');
  });

  it('reads the run from the description when no commit names one', async () => {
    const outcomes = createMemoryPrOutcomes();
    commits('chore: a person squashed it');
    const t = trigger({ merged: false, mergeSha: null }, 'text\n\n- Run: `run-9`\n');
    expect(
      await admitPullOutcome({ identity, outcomes }, t, testClient(), silentLogger, 'autofix/'),
    ).toBe('recorded');
    expect((await outcomes.ofRun('run-9'))?.outcome).toBe('closed');
  });

  it('says so when neither names a run', async () => {
    commits('chore: nothing');
    expect(
      await admitPullOutcome(
        { identity, outcomes: createMemoryPrOutcomes() },
        trigger(),
        testClient(),
        silentLogger,
        'autofix/',
      ),
    ).toBe('no-run');
  });

  it.each([
    ['another author', { author: 'other[bot]' }],
    ['a fork', { head: { ref: 'autofix/fix/3-x', repo: 'someone/app' } }],
    ['another prefix', { head: { ref: 'feature/x', repo: 'octo/app' } }],
  ])('leaves a PR of %s without asking GitHub', async (_what, closed) => {
    const outcomes = createMemoryPrOutcomes();
    expect(
      await admitPullOutcome(
        { identity, outcomes },
        trigger(closed),
        testClient(),
        silentLogger,
        'autofix/',
      ),
    ).toBe('ignored');
    expect(outcomes.records.size).toBe(0);
  });
});
