import type { StageContext, StageOutcome, StageOutputMap } from '../../../src/runs/types.js';
import { STAGES } from '../../../src/contracts.js';
import { underLoad } from '../../helpers/deadlines.js';
import { labeledPayload } from '../../helpers/webhooks.js';
import { startHarness, waitFor, type Harness } from './harness.js';

const A = 1001;
const B = 2002;
/** A's backlog: many runs queued before B's one. */
const RUNS_OF_A = 12;
const ONE_AT_A_TIME = { triage: 1, plan: 1, reproduce: 1, code: 1, pr: 1, verify: 1 };

/** Triage calls wait here until the test lets one through (or opens it for good). */
function turnstile() {
  const waiting: (() => void)[] = [];
  let open = false;
  return {
    enter(signal: AbortSignal): Promise<void> {
      if (open) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const go = (): void => resolve();
        waiting.push(go);
        signal.addEventListener(
          'abort',
          () => {
            waiting.splice(waiting.indexOf(go), 1);
            reject(new Error('aborted'));
          },
          { once: true },
        );
      });
    },
    release(): void {
      waiting.shift()?.();
    },
    open(): void {
      open = true;
      for (const go of waiting.splice(0)) go();
    },
    waiting: () => waiting.length,
  };
}

type Turnstile = ReturnType<typeof turnstile>;

function gatedTriage(gate: Turnstile) {
  return async (
    _job: unknown,
    ctx: StageContext,
  ): Promise<StageOutcome<StageOutputMap['triage']>> => {
    await gate.enter(ctx.signal);
    return {
      kind: 'continue',
      output: {
        risk: 'LOW',
        classification: 'fix',
        affected_files: ['README.md'],
        summary: 'typo',
      },
    };
  };
}

const triageOf = (h: Harness, installationId: number) =>
  h.stages.calls.filter((c) => c.stage === 'triage' && c.job.installationId === installationId);

/** Sends A's runs and waits until all are queued, the first held at the gate. */
async function queueRunsOfA(h: Harness, gate: Turnstile): Promise<void> {
  for (let i = 1; i <= RUNS_OF_A; i++) {
    await h.send('issues', labeledPayload({ issueNumber: i, installationId: A }));
  }
  await h.admitted();
  await waitFor(
    async () =>
      ((await h.jobs('triage')).length === RUNS_OF_A && gate.waiting() === 1) || undefined,
    undefined,
    "A's runs queued, the first one's triage running",
  );
}

/** Sends B's one run (another installation, another repository) and waits until it is queued. */
async function queueRunOfB(h: Harness): Promise<void> {
  await h.send('issues', labeledPayload({ issueNumber: 900, owner: 'Other', installationId: B }));
  await h.admitted();
  await waitFor(
    async () => (await h.runsAt('triage')).some((r) => r.installationId === B) || undefined,
    undefined,
    "B's triage job",
  );
}

/**
 * Lets triage calls through one at a time until B's starts; the runs of A that started their
 * triage meanwhile (not counting `startedBefore`, runs already started when B's job was queued).
 */
async function runsOfABeforeB(h: Harness, gate: Turnstile, startedBefore: Set<string>) {
  const calls = () => h.stages.calls.filter((c) => c.stage === 'triage');
  while (triageOf(h, B).length === 0) {
    const seen = calls().length;
    gate.release();
    await waitFor(() => calls().length > seen || undefined, undefined, 'the next triage');
  }
  const beforeB = calls().slice(0, calls().indexOf(triageOf(h, B)[0]!));
  return new Set(beforeB.map((c) => c.runId).filter((id) => !startedBefore.has(id)));
}

describe('fair share between installations', () => {
  const harnesses: Harness[] = [];
  afterEach(async () => {
    for (const h of harnesses.reverse()) await h.close();
    harnesses.length = 0;
  });

  it("starts another installation's run within one slot of a busy installation's backlog", async () => {
    const gate = turnstile();
    const h = await startHarness({
      overrides: { triage: gatedTriage(gate) },
      worker: { concurrency: ONE_AT_A_TIME },
    });
    harnesses.push(h);
    await queueRunsOfA(h, gate);
    const startedBefore = new Set(triageOf(h, A).map((c) => c.runId));
    await queueRunOfB(h);

    const aFirst = await runsOfABeforeB(h, gate, startedBefore);
    expect(aFirst.size).toBeLessThanOrEqual(1);

    // Every run still ends with its pull request, and every stage job had a priority.
    gate.open();
    await waitFor(() => h.github.pulls.length === RUNS_OF_A + 1 || undefined);
    for (const stage of STAGES) {
      for (const job of await h.jobs(stage)) expect(job.opts.priority).toBeGreaterThan(0);
    }
  });

  it('keeps the order across a restart of the app and its workers', async () => {
    const gate = turnstile();
    const before = await startHarness({
      overrides: { triage: gatedTriage(gate) },
      worker: { concurrency: ONE_AT_A_TIME },
    });
    harnesses.push(before);
    await queueRunsOfA(before, gate);
    const startedBefore = new Set(triageOf(before, A).map((c) => c.runId));
    // The held triage is interrupted and handed back to the queue; nothing else ran.
    expect((await before.app.stop(underLoad(5000))).forced).toBe(false);

    const after = await startHarness({
      prefix: before.prefix,
      github: before.github,
      overrides: { triage: gatedTriage(gate) },
      worker: { concurrency: ONE_AT_A_TIME },
    });
    harnesses.push(after);
    await waitFor(() => gate.waiting() === 1 || undefined, undefined, 'the next triage of A');
    for (const c of triageOf(after, A)) startedBefore.add(c.runId);
    await queueRunOfB(after);

    const aFirst = await runsOfABeforeB(after, gate, startedBefore);
    expect(aFirst.size).toBeLessThanOrEqual(1);
    gate.open();
    await waitFor(() => after.github.pulls.length === RUNS_OF_A + 1 || undefined);
  });
});
