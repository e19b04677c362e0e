/** The bench's tables and its last line (pure: strings in, strings out). */
import type { ChaosArgs } from './args.js';
import type { InjectedFault } from './controller.js';
import type { Leftover, RemoteBranch, RunResult } from './outcomes.js';
import { describeFault, FAULT_KINDS } from './schedule.js';
import { delivered } from './triggers.js';

export interface ChaosReport {
  args: ChaosArgs;
  sandbox: string;
  wallMs: number;
  quiet: boolean;
  busyAtEnd?: Record<string, number>;
  faults: InjectedFault[];
  runs: RunResult[];
  branches: RemoteBranch[];
  leftovers: Leftover[];
  processes: { name: string; starts: number; unexpectedExits: string[] }[];
  llmAnswers: Map<string, number>;
  jobs?: { completed: number; failed: number };
  strays: number;
  startedAt: number;
}

export interface Counts {
  runs: number;
  faults: number;
  lost: number;
  duplicatePrs: number;
  orphanBranches: number;
  staleWorktrees: number;
}

export function countsOf(r: ChaosReport): Counts {
  return {
    runs: r.runs.length,
    faults: r.faults.filter((f) => f.applied).length,
    lost: r.runs.filter((x) => x.outcome === 'lost').length,
    duplicatePrs: r.runs.filter((x) => x.prs.length > 1).length,
    orphanBranches: r.branches.filter((b) => !b.openPr).length,
    staleWorktrees: r.leftovers.length,
  };
}

export function summaryLine(c: Counts): string {
  return (
    `SUMMARY chaos runs=${c.runs} faults=${c.faults} lost=${c.lost} ` +
    `duplicate_prs=${c.duplicatePrs} orphan_branches=${c.orphanBranches} stale_worktrees=${c.staleWorktrees}`
  );
}

const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const pad = (rows: [string, string][]): string[] => {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`);
};
const percentile = (xs: number[], p: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const runTag = (r: RunResult): string => `#${r.run + 1}(issue ${r.issue})`;

/** Faults injected while the run was in flight (from its delivery to its outcome or the end). */
export function faultsDuring(
  r: RunResult,
  faults: InjectedFault[],
  endMs: number,
): InjectedFault[] {
  const from = r.delivery.sentAtMs;
  const to = r.outcomeMs === undefined ? endMs : from + r.outcomeMs;
  return faults.filter((f) => f.applied && f.atMs >= from - 500 && f.atMs <= to);
}

export function renderReport(r: ChaosReport): string[] {
  const c = countsOf(r);
  const lines: string[] = [];
  const endMs = r.wallMs;
  lines.push(
    `bench:chaos — seed ${r.args.seed}, ${r.args.runs} runs (one every ~${r.args.spacingS} s), ` +
      `${r.args.workers} worker process(es), sandbox ${r.sandbox}, ${s(r.wallMs)}` +
      (r.quiet ? ', ended idle' : ', DEADLINE REACHED before the queues were idle'),
  );
  if (!r.quiet && r.busyAtEnd) {
    lines.push(`  jobs still unfinished at the deadline: ${JSON.stringify(r.busyAtEnd)}`);
  }

  lines.push('', 'faults injected');
  const faultRows: [string, string][] = FAULT_KINDS.map((kind) => {
    const all = r.faults.filter((f) => f.fault.kind === kind);
    const applied = all.filter((f) => f.applied).length;
    const skipped = all.length - applied;
    return [kind, `${applied}${skipped ? ` (+${skipped} skipped: process already down)` : ''}`];
  });
  faultRows.push(['total', String(c.faults)]);
  lines.push(...pad(faultRows));

  lines.push('', 'outcomes (per trigger)');
  const by = (o: string) => r.runs.filter((x) => x.outcome === o).length;
  const lostBy = (why: string) =>
    r.runs.filter((x) => x.outcome === 'lost' && x.lostReason === why).length;
  lines.push(
    ...pad([
      ['pull request', String(by('pr'))],
      ['failure comment', String(by('failed'))],
      ['pull request and failure comment', String(by('pr+failure'))],
      ['stopped (status says so)', String(by('stopped'))],
      ['lost: delivery failed (not redelivered)', String(lostBy('delivery failed'))],
      ['lost: delivered, no outcome', String(lostBy('delivered, no outcome'))],
    ]),
  );

  const times = r.runs.flatMap((x) => (x.outcomeMs === undefined ? [] : [x.outcomeMs]));
  const failedDeliveries = r.runs.filter((x) => !delivered(x.delivery));
  const statusOff = r.runs.filter(
    (x) => x.outcome !== 'lost' && x.statuses.length !== 1 && x.delivery.status !== undefined,
  );
  const prNoRocket = r.runs.filter((x) => x.prs.length > 0 && !x.statuses.includes('success'));
  const failureTwice = r.runs.filter((x) => x.failures.length > 1);
  lines.push('', 'invariants (goal: all 0)');
  lines.push(
    ...pad([
      ['lost', String(c.lost)],
      ['duplicate_prs (issues with > 1 PR)', String(c.duplicatePrs)],
      ['orphan_branches (no open PR)', String(c.orphanBranches)],
      ['stale_worktrees (job folders, worktrees)', String(c.staleWorktrees)],
    ]),
  );
  lines.push('', 'also');
  const exits = r.processes
    .map(
      (p) =>
        `${p.name} ${p.starts - 1}${p.unexpectedExits.length ? ` [own exits: ${p.unexpectedExits.join(', ')}]` : ''}`,
    )
    .join('; ');
  lines.push(
    ...pad([
      [
        'deliveries not answered 2xx',
        `${failedDeliveries.length}${failedDeliveries.length ? ` (${[...new Set(failedDeliveries.map((x) => x.delivery.status ?? x.delivery.error))].join(', ')})` : ''}`,
      ],
      ['runs with ≠ 1 status comment', String(statusOff.length)],
      ['PRs whose status is not 🚀', String(prNoRocket.length)],
      ['runs with > 1 failure comment', String(failureTwice.length)],
      ['restarts per process', exits],
      ['stage jobs completed / failed', r.jobs ? `${r.jobs.completed} / ${r.jobs.failed}` : '?'],
      [
        'trigger → outcome p50 / p90 / max',
        times.length
          ? `${s(percentile(times, 50))} / ${s(percentile(times, 90))} / ${s(Math.max(...times))}`
          : '—',
      ],
      ['LLM answers', [...r.llmAnswers].map(([agent, n]) => `${agent} ${n}`).join(', ') || '0'],
      ['processes of ours left at the end', String(r.strays)],
    ]),
  );

  const problems: [string, string][] = [];
  const tags = (xs: RunResult[]) => xs.map(runTag).join(' ');
  const lost = r.runs.filter((x) => x.outcome === 'lost');
  if (lost.length) problems.push(['lost', tags(lost)]);
  const dup = r.runs.filter((x) => x.prs.length > 1);
  if (dup.length) problems.push(['duplicate PRs', tags(dup)]);
  const orphans = r.branches.filter((b) => !b.openPr);
  if (orphans.length) problems.push(['orphan branches', orphans.map((b) => b.name).join(' ')]);
  if (r.leftovers.length) {
    const per = new Map<string, number>();
    for (const l of r.leftovers)
      per.set(`${l.worker} ${l.kind}`, (per.get(`${l.worker} ${l.kind}`) ?? 0) + 1);
    problems.push(['stale worktrees', [...per].map(([k, n]) => `${k} ×${n}`).join(', ')]);
  }
  if (problems.length) lines.push('', 'where (--verbose for every run)', ...pad(problems));

  if (r.args.verbose) {
    lines.push('', 'faults (ms since start)');
    for (const f of r.faults) {
      lines.push(
        `  +${String(f.atMs).padStart(7)}  ${f.applied ? '' : '[skipped] '}${describeFault(f.fault)}${f.note ? ` (${f.note})` : ''}`,
      );
    }
    lines.push('', 'runs');
    for (const x of r.runs) {
      const d = x.delivery;
      const answer = d.status === undefined ? `no answer (${d.error})` : String(d.status);
      const result =
        x.outcome === 'pr' || x.outcome === 'pr+failure'
          ? `PR ${x.prs.map((p) => `#${p.number}`).join(',')}`
          : x.outcome;
      const time = x.outcomeMs === undefined ? '' : ` in ${s(x.outcomeMs)}`;
      lines.push(
        `  ${runTag(x)} sent +${d.sentAtMs} → ${answer} (${Math.round(d.ms)} ms); ${result}${time}; ` +
          `status: ${x.statuses.join(',') || 'none'}`,
      );
      for (const failure of x.failures) lines.push(`      failure: ${failure}`);
      for (const b of r.branches.filter((b) => b.issue === x.issue && !b.openPr)) {
        lines.push(`      orphan branch: ${b.name}`);
      }
      for (const f of faultsDuring(x, r.faults, endMs)) {
        lines.push(
          `      fault +${f.atMs}: ${describeFault(f.fault)}${f.note ? ` (${f.note})` : ''}`,
        );
      }
    }
    if (r.leftovers.length) {
      lines.push('', 'leftovers');
      for (const l of r.leftovers) lines.push(`  ${l.worker} ${l.kind}: ${l.path}`);
    }
  }
  lines.push('', summaryLine(c));
  return lines;
}
