import { labeledPayload } from '../../helpers/webhooks.js';
import { startHarness, waitFor, type Harness } from './harness.js';
import { WAIT_MS } from '../../helpers/deadlines.js';

describe('worker recovery and limits', () => {
  const harnesses: Harness[] = [];
  afterEach(async () => {
    for (const h of harnesses.reverse()) await h.close();
    harnesses.length = 0;
  });

  it('recovers a job whose worker died mid-stage: another worker runs it to the end', async () => {
    let hung = false;
    const dying = await startHarness({
      overrides: {
        code: () => {
          hung = true;
          return new Promise(() => undefined); // this worker "dies" holding the job
        },
      },
      worker: { lockDurationMs: 1000, stalledIntervalMs: 500 },
    });
    harnesses.push(dying);
    await dying.send('issues', labeledPayload({ issueNumber: 41 }));
    await waitFor(() => hung || undefined, WAIT_MS, 'the code stage');
    expect((await dying.app.stop(100)).forced).toBe(true);

    const rescuer = await startHarness({
      prefix: dying.prefix,
      github: dying.github,
      worker: { lockDurationMs: 1000, stalledIntervalMs: 500 },
    });
    harnesses.push(rescuer);
    const pull = await waitFor(() => dying.github.pulls[0], WAIT_MS, 'the pull request');
    expect(pull.head).toBe('autofix/fix/41-test');
    expect(rescuer.stages.calls.map((c) => c.stage)).toEqual(['code', 'pr']);
  });

  it('delays stage jobs over the per-installation rate limit instead of failing them', async () => {
    const h = await startHarness({ worker: { rateLimit: { max: 2, durationMs: 60_000 } } });
    harnesses.push(h);
    await h.send('issues', labeledPayload({ issueNumber: 42 }));
    // Two jobs a minute: triage and plan run, the third stage waits.
    const [third] = await waitFor(
      async () => {
        const jobs = await h.jobs('reproduce');
        return jobs.length > 0 && (await jobs[0]!.getState()) === 'delayed' ? jobs : undefined;
      },
      WAIT_MS,
      'the delayed reproduce job',
    );
    expect(h.stages.calls.map((c) => c.stage)).toEqual(['triage', 'plan']);
    expect(third!.attemptsMade).toBe(0);
    // The worker counts the delay once the job is moved: the count is waited for, not raced.
    const counted = 'autofix_jobs_total{stage="reproduce",outcome="delayed"} 1';
    const metric = (): Promise<string> =>
      h.metrics.registry.getSingleMetricAsString('autofix_jobs_total');
    await waitFor(async () => (await metric()).includes(counted) || undefined);
    expect(await metric()).toContain(counted);
  });
});
