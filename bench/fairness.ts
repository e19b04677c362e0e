/**
 * `npm run bench:fairness`: fair share between installations on the stage queues (issue #36).
 * Installation A queues 50 runs at once; B queues one a moment later, once A's first stage has
 * started (at a point spread over one stage's latency across repeats). Real Redis, the real stage queues, worker pool (default concurrency:
 * 4 per stage, 2 for reproduce and code) and run intake; GitHub the fake one; every stage function
 * waits a fixed latency (BENCH_STAGE_MS, default 50 ms) standing in for a scripted model.
 * The same scenario runs with fair share on (the app's order) and off (`fifo`: BullMQ's order of
 * arrival, as before #36), and B's run alone, interleaved per repeat; medians are shown.
 *
 *   - B's time to its first stage: from queueing its run to the end of its first stage (the first
 *     result its issue sees); the start of that stage is shown too.
 *   - B's time to its PR: from queueing its run to the end of its last stage (the PR is open).
 *   - b_wait_ratio = B's time to its first stage with A's 50 queued, fair share on ÷ B alone.
 *   - a_throughput_ratio = A's runs/s (50 ÷ from A queueing its first run to its last PR) with fair
 *     share on ÷ with it off (B's run present in both).
 *
 * Last line: `SUMMARY fairness b_wait_ratio=… b_first_stage_ms=… a_throughput_ratio=…`.
 * Env: BENCH_REPEATS (default 5), BENCH_RUNS_OF_A (default 50), BENCH_STAGE_MS, REDIS_URL.
 */
import { startFakeGitHub } from '../fakes/github/index.js';
import { ROUTES } from '../src/runs/types.js';
import type { JobOrder } from '../src/scheduler/fair-share/stage-queue.js';
import { generateAppKeyPair } from '../test/helpers/webhooks.js';
import { benchAuth, startStageApp, type StageApp } from './fairness/stage-app.js';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);
const RUNS_OF_A = Number(process.env.BENCH_RUNS_OF_A ?? 50);
const STAGE_MS = Number(process.env.BENCH_STAGE_MS ?? 50);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const A = 1;
const B = 2;
const FIRST = ROUTES.fix[0];
const LAST = ROUTES.fix.at(-1)!;

interface Sample {
  bFirstStartMs: number;
  bFirstStageMs: number;
  bPrMs: number;
  /** A's runs per second; undefined when B ran alone. */
  aRunsPerS?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

async function until(done: () => boolean, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`bench:fairness: timed out waiting for ${what}`);
    await sleep(5);
  }
}

const prEnd = (app: StageApp, runId: string): number | undefined =>
  app.times.get(runId)?.[LAST]?.end;

/** One scenario on a fresh prefix: A's backlog (unless `alone`), then B's run `offsetMs` later. */
async function scenario(
  base: Omit<Parameters<typeof startStageApp>[0], 'order'>,
  order: JobOrder,
  alone: boolean,
  offsetMs: number,
): Promise<Sample> {
  const app = startStageApp({ ...base, order });
  try {
    const aStarted = performance.now();
    const runsOfA = alone
      ? []
      : await Promise.all(Array.from({ length: RUNS_OF_A }, (_, i) => app.start(A, i + 1)));
    // B arrives while A's backlog runs, at `offsetMs` into a stage's slot.
    if (!alone) await until(() => app.times.size > 0, "A's first stage");
    await sleep(offsetMs);
    const bQueued = performance.now();
    const runOfB = await app.start(B, 1000);
    const all = [...runsOfA, runOfB];
    await until(() => all.every((id) => prEnd(app, id) !== undefined), 'every run to end');
    const b = app.times.get(runOfB)!;
    const lastOfA = Math.max(...runsOfA.map((id) => prEnd(app, id)!));
    return {
      bFirstStartMs: b[FIRST]!.start - bQueued,
      bFirstStageMs: b[FIRST]!.end! - bQueued,
      bPrMs: b[LAST]!.end! - bQueued,
      ...(alone ? {} : { aRunsPerS: RUNS_OF_A / ((lastOfA - aStarted) / 1000) }),
    };
  } finally {
    await app.close();
  }
}

async function main(): Promise<void> {
  const keys = generateAppKeyPair();
  const github = await startFakeGitHub({ appPublicKey: keys.publicKey });
  github.setPermission('maintainer', 'write');
  const auth = benchAuth(github, keys.privateKey);
  const base = { auth, redisUrl: REDIS_URL, latencyMs: STAGE_MS };
  const rows = { alone: [] as Sample[], fair: [] as Sample[], fifo: [] as Sample[] };
  try {
    // Warm-up: JIT, both installations' tokens, connections.
    await Promise.all([A, B].map((id) => auth(id)));
    await scenario(base, 'fair', false, 0);
    for (let k = 0; k < REPEATS; k++) {
      // B arrives at a different point of A's stage slots on each repeat.
      const offset = Math.round(((k + 0.5) / REPEATS) * STAGE_MS);
      rows.alone.push(await scenario(base, 'fair', true, offset));
      rows.fair.push(await scenario(base, 'fair', false, offset));
      rows.fifo.push(await scenario(base, 'fifo', false, offset));
    }
  } finally {
    await github.close();
  }
  print(rows);
}

function print(rows: Record<'alone' | 'fair' | 'fifo', Sample[]>): void {
  const m = (xs: Sample[], k: keyof Sample): number => median(xs.map((x) => x[k] ?? NaN));
  const f = (n: number, d = 0): string => (Number.isFinite(n) ? n.toFixed(d) : '—');
  const alone = m(rows.alone, 'bFirstStageMs');
  console.log(
    `\nA queues ${RUNS_OF_A} runs, B one a moment later; stages of ${STAGE_MS} ms; ` +
      `median of ${REPEATS} repeats (ms from B's run queued)\n`,
  );
  console.log(
    "| scenario | B's first stage starts | B's first stage done | B's PR | B's first stage ÷ alone | A's runs/s |",
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  const label = {
    alone: 'B alone',
    fair: 'A + B, fair share',
    fifo: 'A + B, fair share off (FIFO)',
  };
  for (const key of ['alone', 'fair', 'fifo'] as const) {
    const xs = rows[key];
    console.log(
      `| ${label[key]} | ${f(m(xs, 'bFirstStartMs'))} | ${f(m(xs, 'bFirstStageMs'))} | ` +
        `${f(m(xs, 'bPrMs'))} | ${f(m(xs, 'bFirstStageMs') / alone, 2)} | ${f(m(xs, 'aRunsPerS'), 1)} |`,
    );
  }
  const fair = m(rows.fair, 'bFirstStageMs');
  console.log(
    `\nSUMMARY fairness b_wait_ratio=${f(fair / alone, 2)} b_first_stage_ms=${f(fair)} ` +
      `a_throughput_ratio=${f(m(rows.fair, 'aRunsPerS') / m(rows.fifo, 'aRunsPerS'), 2)}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
