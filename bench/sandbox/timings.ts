/** Summaries and Markdown rows for the sandbox bench: every row is a list of samples in ms. */

export interface Timing {
  name: string;
  samples: number[];
}

export interface Summary {
  min: number;
  median: number;
  p90: number;
  max: number;
}

function sorted(xs: readonly number[]): number[] {
  return [...xs].sort((a, b) => a - b);
}

export function median(xs: readonly number[]): number {
  const s = sorted(xs);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Nearest rank: with 30 samples p90 is the 27th. */
export function percentile(xs: readonly number[], p: number): number {
  const s = sorted(xs);
  if (s.length === 0) return NaN;
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

export function summarize(samples: readonly number[]): Summary {
  const s = sorted(samples);
  return { min: s[0] ?? NaN, median: median(s), p90: percentile(s, 90), max: s.at(-1) ?? NaN };
}

export interface Case {
  name: string;
  run: () => Promise<void>;
}

/**
 * Each case once untimed (first-use costs: the sandbox self-test, page cache), then `runs` rounds
 * of every case in turn, so that a slow minute of this noisy VM lands on all rows alike.
 */
export async function timeInterleaved(cases: readonly Case[], runs: number): Promise<Timing[]> {
  for (const c of cases) await c.run();
  const rows = cases.map((c) => ({ name: c.name, samples: [] as number[] }));
  for (let i = 0; i < runs; i++) {
    for (const [k, c] of cases.entries()) {
      const t = performance.now();
      await c.run();
      rows[k]!.samples.push(performance.now() - t);
    }
  }
  return rows;
}

const ms = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : '–');

/** `| command | runs | min | median | p90 | max |`, in ms. */
export function timingTable(rows: readonly Timing[]): string[] {
  const lines = [
    '| command | runs | min ms | median ms | p90 ms | max ms |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    const s = summarize(row.samples);
    lines.push(
      `| ${row.name} | ${row.samples.length} | ${ms(s.min)} | ${ms(s.median)} | ${ms(s.p90)} | ${ms(s.max)} |`,
    );
  }
  return lines;
}
