import { labeledPayload } from '../../helpers/webhooks.js';
import { startHarness, waitFor, type Harness } from './harness.js';
import { WAIT_MS } from '../../helpers/deadlines.js';

describe('graceful shutdown', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it("aborts the active job's signal and hands the job back to the queue unharmed", async () => {
    let aborted = false;
    let started = false;
    h = await startHarness({
      overrides: {
        code: (_job, ctx) =>
          new Promise((_, reject) => {
            started = true;
            ctx.signal.addEventListener('abort', () => {
              aborted = true;
              reject(new Error('validation interrupted'));
            });
          }),
      },
    });
    await h.send('issues', labeledPayload({ issueNumber: 21 }));
    await waitFor(() => started || undefined, WAIT_MS, 'the code stage');

    const { forced } = await h.app.stop(5000);
    expect(forced).toBe(false);
    expect(aborted).toBe(true);

    // Back in the queue with no attempt used, ready for another worker; no failure reported.
    const [job] = await h.jobs('code');
    expect(await job!.getState()).toBe('delayed');
    expect(job!.attemptsMade).toBe(0);
    expect([...h.github.comments.values()].some((c) => c.body.includes('Autofix failed'))).toBe(
      false,
    );
  });

  it('force-closes when a job ignores the signal past the deadline', async () => {
    let started = false;
    h = await startHarness({
      overrides: {
        code: () => {
          started = true;
          return new Promise(() => undefined);
        },
      },
    });
    await h.send('issues', labeledPayload({ issueNumber: 22 }));
    await waitFor(() => started || undefined, WAIT_MS, 'the code stage');
    const t = Date.now();
    const { forced } = await h.app.stop(300);
    expect(forced).toBe(true);
    expect(Date.now() - t).toBeLessThan(3000);
  });
});
