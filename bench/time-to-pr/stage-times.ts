/**
 * A local run's time by stage, read from its `summary.json` progress events (`stages`: stage,
 * status, message, `at_ms` since the run started). A top-level stage lasts from its first event
 * to the next top-level stage's first event (the last one to its own last event); `setup` and
 * `validate` are nested in the stage that ran them and summed from their start/done pairs.
 */

export interface StageEvent {
  stage: string;
  status: string;
  at_ms: number;
  message: string;
}

/** The stages of a run in the order the pipeline runs them. */
export const TOP_STAGES = ['workspace', 'triage', 'plan', 'reproduce', 'code', 'pr'] as const;
export type TopStage = (typeof TOP_STAGES)[number];

export interface StageTimes {
  /** Milliseconds per top-level stage (0 when the run did not reach it). */
  stages: Record<TopStage, number>;
  /** Milliseconds of every setup command, and how many ran (installs and restores alike). */
  setupMs: number;
  setupRuns: number;
  /** Setup runs answered from the setup cache or the worktree's own earlier setup (no install). */
  setupRestores: number;
  validateMs: number;
  /** From the first event to the last. */
  totalMs: number;
}

const isTop = (stage: string): stage is TopStage =>
  (TOP_STAGES as readonly string[]).includes(stage);

function topStageTimes(events: readonly StageEvent[]): Record<TopStage, number> {
  const firsts: { stage: TopStage; at: number }[] = [];
  for (const e of events)
    if (isTop(e.stage) && !firsts.some((f) => f.stage === e.stage))
      firsts.push({ stage: e.stage, at: e.at_ms });
  const out = Object.fromEntries(TOP_STAGES.map((s) => [s, 0])) as Record<TopStage, number>;
  firsts.forEach((f, i) => {
    const next = firsts[i + 1];
    const lastOwn = events.filter((e) => e.stage === f.stage).at(-1)?.at_ms ?? f.at;
    out[f.stage] = (next ? next.at : lastOwn) - f.at;
  });
  return out;
}

/** Total time of `stage` from each `start` event to the `done`/`failed` event that follows it. */
function nested(events: readonly StageEvent[], stage: string): { ms: number; runs: StageEvent[] } {
  let ms = 0;
  let open: number | undefined;
  const runs: StageEvent[] = [];
  for (const e of events) {
    if (e.stage !== stage) continue;
    if (e.status === 'start') open ??= e.at_ms;
    // `info` ("still running … (15 s)") is news of an open span, not its end.
    else if (open !== undefined && e.status !== 'info') {
      // A restore is done before its line is shown: the line says how long it took.
      const restored = /restored from cache \(key \w+, \d+ files, (\d+) ms\)/.exec(e.message);
      ms += restored ? Number(restored[1]) : e.at_ms - open;
      runs.push(e);
      open = undefined;
    }
  }
  return { ms, runs };
}

export function stageTimes(events: readonly StageEvent[]): StageTimes {
  const setup = nested(events, 'setup');
  const validate = nested(events, 'validate');
  const first = events[0]?.at_ms ?? 0;
  return {
    stages: topStageTimes(events),
    setupMs: setup.ms,
    setupRuns: setup.runs.length,
    setupRestores: setup.runs.filter((e) =>
      /\bfrom (the )?(setup )?cache\b|\balready done in this worktree\b/i.test(e.message),
    ).length,
    validateMs: validate.ms,
    totalMs: (events.at(-1)?.at_ms ?? first) - first,
  };
}
