import { stageTimes, type StageEvent } from '../../../bench/time-to-pr/stage-times.js';

const ev = (at_ms: number, stage: string, status: string, message = stage): StageEvent => ({
  at_ms,
  stage,
  status,
  message,
});

// The shape `autofix run` writes in summary.json (a replayed dayjs run, trimmed).
const RUN: StageEvent[] = [
  ev(36, 'workspace', 'start'),
  ev(264, 'workspace', 'done'),
  ev(264, 'triage', 'start'),
  ev(512, 'triage', 'done'),
  ev(513, 'plan', 'start'),
  ev(537, 'plan', 'done'),
  ev(537, 'reproduce', 'start'),
  ev(548, 'setup', 'start', '`npm install`'),
  ev(5548, 'setup', 'info', 'still running `npm install` (5 s)'),
  ev(10991, 'setup', 'done', '`npm install` passed in 10.3 s'),
  ev(13437, 'reproduce', 'skipped', 'no reproduction'),
  ev(13437, 'code', 'start'),
  ev(13467, 'setup', 'start', '`npm install`'),
  ev(14737, 'setup', 'done', 'setup restored from cache (key ab12cd34ef56, 812 files, 90 ms)'),
  ev(14744, 'validate', 'start', 'baseline'),
  ev(16302, 'validate', 'done', 'baseline passed'),
  ev(16348, 'validate', 'start', 'validating 1 changed file(s)'),
  ev(16349, 'validate', 'start', '`npx jest`'),
  ev(17910, 'validate', 'done', '`npx jest` passed'),
  ev(18049, 'code', 'done'),
  ev(18049, 'pr', 'start'),
  ev(18139, 'pr', 'done'),
];

describe('bench:time-to-pr stage times', () => {
  it('splits a run at each top-level stage and nests setup and validate in them', () => {
    const t = stageTimes(RUN);
    expect(t.stages).toEqual({
      workspace: 228,
      triage: 249,
      plan: 24,
      reproduce: 12900,
      code: 4612,
      pr: 90,
    });
    // The restore's own figure (90 ms), not the span between its two events.
    expect(t.setupMs).toBe(10443 + 90);
    expect(t.setupRuns).toBe(2);
    expect(t.setupRestores).toBe(1);
    // A nested start inside an open one (validating → its command) is one span.
    expect(t.validateMs).toBe(1558 + 1562);
    expect(t.totalMs).toBe(18139 - 36);
  });

  it('gives zeros for a run that wrote no events and 0 for stages a failed run never reached', () => {
    expect(stageTimes([]).totalMs).toBe(0);
    const failed = stageTimes(RUN.slice(0, 6));
    expect(failed.stages.reproduce).toBe(0);
    expect(failed.stages.plan).toBe(24);
    expect(failed.setupRuns).toBe(0);
  });
});
