/**
 * What `bench:resolve` prints: a line per task and strategy while it runs, then a table per
 * strategy (tasks, resolved share, p50 wall time of the run, p50 tokens, total cost) and the
 * `SUMMARY resolve …` line.
 */
import { median } from '../context/gold.js';
import type { PipelineResult } from './run-pipeline.js';
import type { Verdict } from './judge.js';

export interface TaskResult {
  id: string;
  strategy: string;
  run: PipelineResult;
  verdict: Verdict;
}

/** One line per task and strategy, printed as soon as it is known. */
export function taskLine(r: TaskResult): string {
  const why = r.verdict.resolved
    ? ''
    : ` — ${r.verdict.error ?? `f2p failed: ${r.verdict.f2pFailed.join(', ') || '-'}${r.verdict.p2pBroken.length ? `; p2p broken: ${r.verdict.p2pBroken.join(', ')}` : ''}`}${r.run.reason ? ` (run: ${r.run.reason})` : ''}`;
  return `${r.id} [${r.strategy}] ${r.verdict.resolved ? 'RESOLVED' : 'unresolved'} exit=${r.run.exitCode} outcome=${r.run.outcome} ${r.run.seconds.toFixed(1)} s, ${r.run.tokens} tokens, $${r.run.costUsd.toFixed(4)}, judged in ${r.verdict.seconds.toFixed(1)} s${why}`;
}

const cell = (value: string, width: number): string => value.padStart(width);

export function table(results: TaskResult[], strategies: string[]): string {
  const head = ['strategy'.padEnd(10), 'tasks', 'resolved', '  %', 'p50 s', 'p50 tok', 'cost $'];
  const lines = [head.join('  ')];
  for (const strategy of strategies) {
    const rs = results.filter((r) => r.strategy === strategy);
    const resolved = rs.filter((r) => r.verdict.resolved).length;
    lines.push(
      [
        strategy.padEnd(10),
        cell(String(rs.length), 5),
        cell(String(resolved), 8),
        cell(rs.length ? ((100 * resolved) / rs.length).toFixed(0) : '-', 3),
        cell(median(rs.map((r) => r.run.seconds)).toFixed(1), 5),
        cell(String(median(rs.map((r) => r.run.tokens))), 7),
        cell(rs.reduce((s, r) => s + r.run.costUsd, 0).toFixed(4), 6),
      ].join('  '),
    );
  }
  return lines.join('\n');
}

/** Per task: its tokens and cost under each strategy. */
export function perTask(results: TaskResult[]): string {
  return results
    .map(
      (r) =>
        `  ${r.id.padEnd(24)} ${r.strategy.padEnd(9)} ${r.verdict.resolved ? 'yes' : 'no '} ${cell(r.run.seconds.toFixed(1), 6)} s ${cell(String(r.run.promptTokens), 7)} in ${cell(String(r.run.completionTokens), 6)} out $${r.run.costUsd.toFixed(4)}`,
    )
    .join('\n');
}

const KEY: Record<string, string> = { 'one-shot': 'one_shot', tools: 'tools', auto: 'auto' };

export function summaryLine(results: TaskResult[], strategies: string[], tasks: number): string {
  const parts = [`SUMMARY resolve tasks=${tasks}`];
  const of = (s: string) => results.filter((r) => r.strategy === s);
  for (const s of strategies)
    parts.push(`${KEY[s] ?? s}_resolved=${of(s).filter((r) => r.verdict.resolved).length}`);
  for (const s of strategies)
    parts.push(
      `${KEY[s] ?? s}_cost_usd=${of(s)
        .reduce((n, r) => n + r.run.costUsd, 0)
        .toFixed(4)}`,
    );
  for (const s of strategies)
    parts.push(`${KEY[s] ?? s}_s_p50=${median(of(s).map((r) => r.run.seconds)).toFixed(1)}`);
  return parts.join(' ');
}
