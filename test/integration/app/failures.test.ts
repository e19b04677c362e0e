import { Queue } from 'bullmq';
import { AutofixError } from '../../../src/errors.js';
import type { RunFailure, RunJobData } from '../../../src/runs/types.js';
import type { StageJobData } from '../../../src/runs/run-record.js';
import { labeledPayload } from '../../helpers/webhooks.js';
import { REDIS_URL, startHarness, waitFor, type Harness } from './harness.js';
import { WAIT_MS } from '../../helpers/deadlines.js';

describe('failed runs', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('does not retry a permanent error; comments, labels, reacts and calls the failure hook once', async () => {
    const failed: { job: RunJobData; failure: RunFailure }[] = [];
    h = await startHarness({
      overrides: {
        plan: () =>
          Promise.reject(
            new AutofixError('RISK_TOO_HIGH', 'Triage rated this HIGH; the threshold is MEDIUM', {
              details: { stderr: 'token ghp_abcdefghijklmnopqrstuvwxyz0123 leaked' },
            }),
          ),
      },
      onRunFailed: (job, failure) => {
        failed.push({ job, failure });
        return Promise.resolve();
      },
    });
    await h.send('issues', labeledPayload({ issueNumber: 11 }));
    await waitFor(() => h.github.calls('POST', /\/issues\/11\/labels$/)[0], WAIT_MS, 'the label');
    await waitFor(() =>
      h.github.calls('POST', /\/issues\/11\/reactions$/).length >= 2 ? true : undefined,
    );

    expect(h.stages.calls.filter((c) => c.stage === 'plan')).toHaveLength(1);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.failure).toMatchObject({
      stage: 'plan',
      attempts: 1,
      error: { code: 'RISK_TOO_HIGH' },
    });

    const comment = [...h.github.comments.values()].find((c) =>
      c.body.includes('Autofix failed during'),
    )!;
    expect(comment.body).toContain('**plan** stage');
    expect(comment.body).toContain('`RISK_TOO_HIGH`');
    expect(comment.body).toContain('Triage rated this HIGH');
    expect(comment.body).toContain('**What you can do:**');
    expect(comment.body).toContain('****23');
    expect(comment.body).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123');

    expect(h.github.calls('POST', '/repos/Codertocat/Hello-World/labels')[0]!.body).toMatchObject({
      name: 'automation-failed',
    });
    expect(h.github.calls('POST', /\/issues\/11\/labels$/)[0]!.body).toEqual({
      labels: ['automation-failed'],
    });
    const reactions = h.github
      .calls('POST', /\/issues\/11\/reactions$/)
      .map((r) => (r.body as { content: string }).content);
    expect(reactions).toEqual(['eyes', 'confused']);

    const status = [...h.github.comments.values()].find(
      (c) => c.body.includes('autofix-run:') && !c.body.includes(':failure'),
    )!;
    expect(status.body).toContain('❌ Autofix failed');
    expect(status.body).toMatch(/\| plan \| ❌ failed/);
    const [planJob] = await h.jobs('plan');
    await waitFor(async () => ((await planJob!.getState()) === 'failed' ? true : undefined));
    expect(h.github.pulls).toHaveLength(0);
  });

  it('a stage job that runs again after its run failed (its worker died while reporting) only completes the report', async () => {
    h = await startHarness({
      overrides: {
        plan: () => Promise.reject(new AutofixError('RISK_TOO_HIGH', 'too risky for the bot')),
      },
    });
    await h.send('issues', labeledPayload({ issueNumber: 14 }));
    const failures = () =>
      [...h.github.comments.values()].filter((c) => c.body.includes('Autofix failed during'));
    await waitFor(() => failures()[0], WAIT_MS, 'the failure comment');
    const [planJob] = await h.jobs('plan');
    await waitFor(async () => ((await planJob!.getState()) === 'failed' ? true : undefined));

    // The same stage job comes back, as a stalled job would.
    const plan = new Queue<StageJobData>('plan', {
      connection: { url: REDIS_URL },
      prefix: h.prefix,
    });
    const again = await plan.add('plan', planJob!.data, {
      jobId: `${planJob!.data.runId}-plan-again`,
    });
    await waitFor(async () => ((await again.getState()) === 'failed' ? true : undefined));
    await plan.close();

    expect(h.stages.calls.filter((c) => c.stage === 'plan')).toHaveLength(1);
    expect(await h.jobs('code')).toHaveLength(0);
    expect(failures()).toHaveLength(1);
    expect(h.github.pulls).toHaveLength(0);
  });

  it('retries a GitHub 502 and succeeds with one pull request', async () => {
    h = await startHarness();
    h.github.failNext('POST', '/repos/Codertocat/Hello-World/pulls', 502);
    await h.send('issues', labeledPayload({ issueNumber: 12 }));
    const pull = await waitFor(() => h.github.pulls[0], WAIT_MS, 'the pull request');
    expect(pull.head).toBe('autofix/fix/12-test');
    expect(h.stages.calls.filter((c) => c.stage === 'pr').map((c) => c.attempt)).toEqual([1, 2]);
    expect(h.github.calls('POST', '/repos/Codertocat/Hello-World/pulls')).toHaveLength(2);
    expect(h.github.pulls).toHaveLength(1);
    await waitFor(() =>
      h.github.calls('POST', /\/issues\/12\/reactions$/).length >= 2 ? true : undefined,
    );
    expect(h.github.labels.has('automation-failed')).toBe(false);
  });

  it('gives up on a transient error after the last attempt and says how many were made', async () => {
    h = await startHarness({
      retry: { attempts: 2, backoffMs: 20 },
      overrides: {
        code: () => Promise.reject(new AutofixError('TIMEOUT', 'the test suite hung')),
      },
    });
    await h.send('issues', labeledPayload({ issueNumber: 13 }));
    const comment = await waitFor(
      () => [...h.github.comments.values()].find((c) => c.body.includes('Autofix failed during')),
      WAIT_MS,
      'the failure comment',
    );
    expect(h.stages.calls.filter((c) => c.stage === 'code').map((c) => c.attempt)).toEqual([1, 2]);
    expect(comment.body).toContain('after 2 attempts');
    expect(comment.body).toContain('`TIMEOUT`');
  });
});
