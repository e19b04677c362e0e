/** The bench's tables and its SUMMARY line, from the measurements of the three parts. */
import type { BigWorktree } from './big-worktree.js';
import type { SetupValidate, VariantTiming } from './setup-validate.js';
import type { StartCost } from './start-cost.js';
import { median, timingTable } from './timings.js';

const seconds = (ms: number): string => (ms / 1000).toFixed(2);
const pct = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(1)}%`;

/** Median over rounds of (b − a) / a: each round ran both, so slow minutes of the VM cancel. */
function pairedPct(a: readonly number[], b: readonly number[]): number {
  return median(a.map((x, i) => ((b[i]! - x) / x) * 100));
}

/** Per job: wall time minus npm's own, i.e. what the runner and the sandbox add around npm. */
const aroundNpm = (v: VariantTiming): number[] => v.total.map((t, i) => t - v.npm[i]!);

export function printStartCost(start: StartCost): void {
  for (const line of timingTable([...start.commands, ...start.parts])) console.log(line);
  const { drain } = start;
  console.log(
    `- when the leader of a sandboxed \`true\` exits, its process group still had a live member ` +
      `in ${drain.leftover} of ${drain.runs} runs (gone ${median(drain.drainMs).toFixed(1)} ms ` +
      `later, median); the runner then signals the group and looks again after 1, 2, 4… ms ` +
      `(process-group.ts POLL_MS). One look (a /proc scan) takes ` +
      `${median(drain.scanMs).toFixed(1)} ms.`,
  );
}

export function printBigWorktree(big: BigWorktree): void {
  for (const line of timingTable(big)) console.log(line);
}

export function printSetupValidate(result: SetupValidate, start: StartCost): void {
  console.log(
    '| variant | runs | setup (npm ci) s | validate (npm test) s | total s | vs none | ' +
      'paired vs none | npm itself s | around npm ms | npm CPU s | cold setup s |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const base = result.variants[0]!;
  for (const v of result.variants) {
    const total = median(v.total);
    const first = v === base;
    console.log(
      `| ${v.name} | ${v.total.length} | ${seconds(median(v.setup))} | ` +
        `${seconds(median(v.validate))} | ${seconds(total)} | ` +
        `${first ? '' : pct(((total - median(base.total)) / median(base.total)) * 100)} | ` +
        `${first ? '' : pct(pairedPct(base.total, v.total))} | ${seconds(median(v.npm))} | ` +
        `${median(aroundNpm(v)).toFixed(0)} | ${seconds(median(v.cpu))} | ` +
        `${seconds(v.cold.setup)} |`,
    );
  }
  console.log('');
  for (const line of timingTable(result.parts)) console.log(line);
  const bwrap = result.variants[1]!;
  const own = ownCost(result);
  console.log(
    `- the sandbox's own cost, measured around npm (bwrap − none): ${own.ms.toFixed(0)} ms per ` +
      `job = ${pct(own.pct)} of none's total; npm itself ran ` +
      `${pct(pairedPct(base.npm, bwrap.npm))} (paired) inside the sandbox, its CPU ` +
      `${pct(((median(bwrap.cpu) - median(base.cpu)) / median(base.cpu)) * 100)}`,
  );
  const parts = partsEstimateMs(start, result);
  console.log(
    `- cross-check from the parts (part 1's \`true\` rows, this job's chown): ` +
      `${parts.toFixed(0)} ms per job = ${pct((parts / median(base.total)) * 100)}`,
  );
  for (const note of result.notes) console.log(`- ${note}`);
  console.log(
    '- "paired": median over rounds of (variant − none) / none, each round ran every variant ' +
      'once; "npm itself" and "npm CPU": GNU time in front of each command, inside the sandbox; ' +
      '"around npm": the job\'s wall time minus npm\'s own (runner, chown, bwrap, proxy, bridge)',
  );
}

/** What the sandbox adds around npm per job, against the same measure without it. */
function ownCost(result: SetupValidate): { ms: number; pct: number } {
  const [none, bwrap] = result.variants;
  const ms = median(aroundNpm(bwrap!)) - median(aroundNpm(none!));
  return { ms, pct: (ms / median(none!.total)) * 100 };
}

/**
 * The same from part 1: setup pays a `true` through bwrap + egress, validate one through bwrap
 * (each over a `true` without sandbox), with the chown of an empty worktree replaced by the job's.
 */
function partsEstimateMs(start: StartCost, result: SetupValidate): number {
  const t = start.trueMs;
  const setup = t.egress - t.none - t.chownEmpty + result.chownMs.setup;
  const validate = t.bwrap - t.none - t.chownEmpty + result.chownMs.validate;
  return setup + validate;
}

export function summaryLine(start: StartCost, result: SetupValidate | undefined): string {
  const t = start.trueMs;
  const [none, bwrap] = result?.variants ?? [];
  const fields: [string, string][] = [
    ['start_ms_none', t.none.toFixed(1)],
    ['start_ms_bwrap', t.bwrap.toFixed(1)],
    ['start_ms_egress', t.egress.toFixed(1)],
    ['npm_ci_none_s', none ? seconds(median(none.setup)) : 'skipped'],
    ['npm_ci_bwrap_s', bwrap ? seconds(median(bwrap.setup)) : 'skipped'],
  ];
  if (result && none && bwrap) {
    const overhead = ((median(bwrap.total) - median(none.total)) / median(none.total)) * 100;
    fields.push(
      ['overhead_pct', overhead.toFixed(1)],
      ['overhead_paired_pct', pairedPct(none.total, bwrap.total).toFixed(1)],
      ['sandbox_own_ms', ownCost(result).ms.toFixed(0)],
      ['sandbox_own_pct', ownCost(result).pct.toFixed(1)],
    );
  } else {
    fields.push(['overhead_pct', 'skipped']);
  }
  return `SUMMARY sandbox ${fields.map(([k, v]) => `${k}=${v}`).join(' ')}`;
}
