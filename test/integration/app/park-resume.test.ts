/**
 * A run that parks (issue #36): an LLM endpoint down past the retries, or a spending cap the next
 * call would cross, parks the run instead of failing it; the status comment says why and what to
 * answer; `/autofix continue` by a maintainer resumes it at the parked stage with no earlier
 * stage run again; the same from a read-only user, or delivered twice, does nothing more; a
 * parking nobody answers expires with a note.
 */
import { AutofixError } from '../../../src/errors.js';
import type { BudgetCapHit } from '../../../src/runs/run-record.js';
import { WAIT_MS } from '../../helpers/deadlines.js';
import { commentPayload, labeledPayload } from '../../helpers/webhooks.js';
import { startHarness, waitFor, type Harness } from './harness.js';

const REPO = 'Codertocat/Hello-World';

/** The status comment of a run on `issue`, as it reads now. */
function statusOf(h: Harness, issue: number): string | undefined {
  return [...h.github.comments.values()].find(
    (c) => c.issueNumber === issue && c.body.includes('autofix-run:'),
  )?.body;
}

const stagesCalled = (h: Harness): string[] => h.stages.calls.map((c) => `${c.stage}#${c.attempt}`);

describe('a parked run', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('parks when the LLM stays down past the retries, and resumes at that stage on /autofix continue', async () => {
    let down = true;
    h = await startHarness({
      retry: { attempts: 2, backoffMs: 20 },
      overrides: {
        code: (job, ctx) =>
          down
            ? Promise.reject(
                new AutofixError('LLM_UNAVAILABLE', 'the LLM answered 503 three times'),
              )
            : h!.stages.defaults.code(job, ctx),
      },
      worker: { statusCreateAfterMs: 0, statusDebounceMs: 0 },
    });
    h.github.setPermission('reader', 'read');
    await h.send('issues', labeledPayload({ issueNumber: 21 }));
    const runId = await waitFor(async () => {
      const [run] = await h!.runsAt('triage');
      const record = run && (await h!.run(run.runId));
      return record?.parked ? record.runId : undefined;
    });
    const parked = (await h.run(runId))!;
    expect(parked.parked).toMatchObject({ reason: 'llm-unavailable', resumeAt: 'code' });
    expect(parked.ending).toBeUndefined();
    expect(parked.stages.code).toMatchObject({ attempts: 2, state: 'parked' });
    const said = await waitFor(() => statusOf(h!, 21)?.includes('paused') && statusOf(h!, 21));
    expect(said).toContain('Autofix is paused');
    expect(said).toContain('`/autofix continue`');
    expect(h.github.labels.has('automation-failed')).toBe(false);
    expect([...h.github.comments.values()].some((c) => c.body.includes('Autofix failed'))).toBe(
      false,
    );

    // A read-only user's continue is ignored like any command of theirs.
    await h.send(
      'issue_comment',
      commentPayload({ issueNumber: 21, comment: '/autofix continue', sender: 'reader' }),
    );
    await h.admitted();
    expect((await h.run(runId))!.parked).toBeDefined();
    expect(stagesCalled(h)).toEqual(['triage#1', 'plan#1', 'reproduce#1', 'code#1', 'code#2']);

    // A maintainer's continue goes on from code; the same delivery again resumes nothing twice.
    down = false;
    const command = commentPayload({ issueNumber: 21, comment: '/autofix continue' });
    const first = await h.send('issue_comment', command);
    await h.send('issue_comment', command, first.deliveryId);
    const pull = await waitFor(() => h!.github.pulls[0], WAIT_MS, 'the pull request');
    expect(pull.head).toBe('autofix/fix/21-test');
    await waitFor(async () => ((await h!.run(runId))?.ending ? true : undefined));
    expect(stagesCalled(h)).toEqual([
      'triage#1',
      'plan#1',
      'reproduce#1',
      'code#1',
      'code#2',
      'code#1',
      'pr#1',
    ]);
    const done = (await h.run(runId))!;
    expect(done.ending).toMatchObject({ outcome: 'finished' });
    expect(done.resumes).toEqual([
      expect.objectContaining({ by: 'maintainer', reason: 'llm-unavailable', stage: 'code' }),
    ]);
    expect(done.stages.code).toMatchObject({ attempts: 3, state: 'done' });
    await waitFor(() => statusOf(h!, 21)?.includes('opened a pull request') || undefined);
  });

  it('parks at a spending cap with its message, and /autofix continue allows the cap once more', async () => {
    const cap: BudgetCapHit = { scope: 'run', limit: 2, spent: 1.94 };
    let capped = true;
    h = await startHarness({
      overrides: {
        reproduce: (job, ctx) =>
          capped
            ? Promise.reject(
                new AutofixError(
                  'BUDGET_PAUSED',
                  'paused at $1.94 of $2.00 after plan; `/autofix continue` allows up to $2.00 more',
                  { details: { cap } },
                ),
              )
            : h!.stages.defaults.reproduce(job, ctx),
      },
      worker: { statusCreateAfterMs: 0, statusDebounceMs: 0 },
    });
    await h.send('issues', labeledPayload({ issueNumber: 22 }));
    const said = await waitFor(() => statusOf(h!, 22)?.includes('paused at') && statusOf(h!, 22));
    expect(said).toContain('paused at $1.94 of $2.00 after plan');
    const [run] = await h.runsAt('triage');
    expect((await h.run(run!.runId))!.parked).toMatchObject({ reason: 'budget', cap });

    capped = false;
    await h.send(
      'issue_comment',
      commentPayload({ issueNumber: 22, comment: '/autofix continue' }),
    );
    await waitFor(() => h!.github.pulls[0], WAIT_MS, 'the pull request');
    const done = await waitFor(async () => {
      const record = await h!.run(run!.runId);
      return record?.ending ? record : undefined;
    });
    expect(done.extraBudgetUsd).toBe(2);
    expect(h.stages.calls.filter((c) => c.stage === 'plan')).toHaveLength(1);
  });

  it('answers /autofix continue on an issue with nothing paused, and starts no run', async () => {
    h = await startHarness();
    await h.send(
      'issue_comment',
      commentPayload({ issueNumber: 23, comment: '/autofix continue' }),
    );
    await h.admitted();
    const replies = h.github.calls('POST', /\/issues\/23\/comments$/);
    expect(replies).toHaveLength(1);
    expect(JSON.stringify(replies[0]!.body)).toContain('no paused Autofix run');
    expect(await h.runsAt('triage')).toEqual([]);
  });

  it('ends a parking nobody answered, with a note, and frees the issue', async () => {
    h = await startHarness({
      overrides: {
        plan: () =>
          Promise.resolve({ kind: 'park', reason: 'plan-approval', message: 'waiting for you' }),
      },
      worker: { parkTtlMs: 1, parkSweepMs: 50, statusCreateAfterMs: 0, statusDebounceMs: 0 },
    });
    await h.send('issues', labeledPayload({ issueNumber: 24 }));
    const [run] = await waitFor(async () => {
      const runs = await h!.runsAt('triage');
      return runs.length > 0 ? runs : undefined;
    });
    const ended = await waitFor(async () => {
      const record = await h!.run(run!.runId);
      return record?.ending ? record : undefined;
    });
    expect(ended.ending).toMatchObject({ outcome: 'finished' });
    expect(JSON.stringify(ended.ending)).toContain('nobody answered');
    const final = await waitFor(
      () => statusOf(h!, 24)?.includes('nobody answered') && statusOf(h!, 24),
    );
    expect(final).toContain('stopped');
    await waitFor(async () => {
      const lock = await h!.lockOf(REPO, 24);
      return lock === null ? true : undefined;
    });
    expect(h.stages.calls.map((c) => c.stage)).toEqual(['triage', 'plan']);
  });
});
