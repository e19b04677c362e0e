/**
 * What `autofix context` shows: the ranking with scores and reasons, and how the prompt
 * context was fitted to the budget. The maintainer's way to see why the bot looked where it
 * looked.
 */
import { buildPromptContext, outlineBudget, type PromptContext } from './build-prompt-context.js';
import { countTokens } from '../llm/count-tokens.js';
import { skipExplanation, type SkipReason } from './build-repo-map.js';
import { mapAndRank, mapAndRankInWorker, type MapAndRanking } from './rank-in-worker.js';
import type { RankedFile } from './rank-files.js';

export interface ContextReport {
  repo: string;
  source: 'git' | 'walk';
  files: number;
  skipped: Record<string, number>;
  refs: {
    paths: string[];
    identifiers: string[];
    options: string[];
    messages: string[];
    dotted: string[];
  };
  ranking: {
    rank: number;
    path: string;
    score: number;
    /** The score by kind of evidence. */
    points: RankedFile['points'];
    inContext: 'whole' | 'cut' | 'omitted' | 'no';
    reasons: string[];
  }[];
  budget: number;
  tokens: number;
  outline: { level: string; tokens: number };
  code: { tokens: number; files: number; cut: number; omitted: { path: string; reason: string }[] };
  /** The prompt text itself (`--show`). */
  context: PromptContext;
}

/** Whether this process has loaded the tokenizer (then a worker thread saves nothing). */
let tokenizerLoaded = false;

export async function explainContext(
  repo: string,
  issueText: string,
  options: { budget: number; top?: number },
): Promise<ContextReport> {
  let result: MapAndRanking;
  const inWorker = tokenizerLoaded
    ? undefined
    : mapAndRankInWorker(repo, issueText, outlineBudget(options.budget), () => {
        // Load the tokenizer while the worker ranks (this thread has read its half of the files).
        countTokens('warm up');
      });
  if (inWorker) {
    tokenizerLoaded = true;
    result = await inWorker.catch(() => mapAndRank(repo, issueText));
  } else result = await mapAndRank(repo, issueText);
  const { map, ranking } = result;
  const context = buildPromptContext(map, ranking, { budget: options.budget });
  const inCode = new Map(
    context.code.files.map((f) => [f.path, f.truncated ? 'cut' : 'whole'] as const),
  );
  const omitted = new Set(context.code.omitted.map((o) => o.path));
  const skipped: Record<string, number> = {};
  for (const s of map.skipped) skipped[s.reason] = (skipped[s.reason] ?? 0) + 1;
  return {
    repo,
    source: map.source,
    files: map.files.length,
    skipped,
    refs: {
      paths: ranking.refs.paths.map((p) => p.raw),
      identifiers: ranking.refs.identifiers,
      options: ranking.refs.options,
      messages: ranking.refs.messages,
      dotted: ranking.refs.dotted,
    },
    ranking: ranking.files.slice(0, options.top ?? 20).map((r, i) => ({
      rank: i + 1,
      path: r.path,
      score: r.score,
      points: r.points,
      inContext: inCode.get(r.path) ?? (omitted.has(r.path) ? 'omitted' : 'no'),
      reasons: r.reasons,
    })),
    budget: context.budget,
    tokens: context.tokens,
    outline: { level: context.outline.level, tokens: context.outline.tokens },
    code: {
      tokens: context.code.tokens,
      files: context.code.files.length,
      cut: context.code.files.filter((f) => f.truncated).length,
      omitted: context.code.omitted.map((o) => ({ path: o.path, reason: o.reason })),
    },
    context,
  };
}

const n = (value: number): string => value.toLocaleString('en-US');

export function formatContextReport(report: ContextReport): string {
  const skipped = Object.entries(report.skipped).map(([reason, count]) => {
    const why = skipExplanation(reason as SkipReason);
    return `${count} ${reason}${why ? ` (${why})` : ''}`;
  });
  const lines = [
    `Repository ${report.repo}: ${n(report.files)} text files (${report.source === 'git' ? 'tracked by git' : 'directory walk'})${skipped.length > 0 ? `, not read: ${skipped.join(', ')}` : ''}`,
    `The issue names: ${report.refs.paths.length > 0 ? `paths ${report.refs.paths.join(', ')}` : 'no paths'}; ${report.refs.identifiers.length > 0 ? `identifiers ${report.refs.identifiers.join(', ')}` : 'no identifiers'}`,
    ...(report.refs.options.length > 0 ? [`Options: ${report.refs.options.join(', ')}`] : []),
    ...(report.refs.messages.length > 0
      ? [`Quoted messages: ${report.refs.messages.map((m) => `"${m}"`).join(', ')}`]
      : []),
    ...(report.refs.dotted.length > 0 ? [`Dotted names: ${report.refs.dotted.join(', ')}`] : []),
    '',
    ' rank     score  context  file',
  ];
  for (const r of report.ranking) {
    lines.push(
      `${String(r.rank).padStart(5)}  ${r.score.toFixed(2).padStart(8)}  ${r.inContext.padEnd(7)}  ${r.path}`,
    );
    lines.push(`${' '.repeat(26)}${r.reasons.join('; ')}`);
  }
  if (report.ranking.length === 0) lines.push('  (no file matches the issue)');
  lines.push(
    '',
    `Context: ${n(report.tokens)} of ${n(report.budget)} tokens (o200k) — outline ${n(report.outline.tokens)} tokens (${report.outline.level}), code ${n(report.code.tokens)} tokens: ${report.code.files} file(s), ${report.code.cut} cut, ${report.code.omitted.length} not shown`,
  );
  for (const o of report.code.omitted) lines.push(`  not shown: ${o.path} (${o.reason})`);
  return lines.join('\n');
}
