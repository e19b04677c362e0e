/**
 * The code of the best-ranked files, fitted to a token budget. When everything does not fit,
 * the largest files are cut first (all files are capped at the same size, the biggest lose the
 * most), each cut keeping the lines around what the issue points at; only when even that fails
 * are the lowest-ranked files left out. Every cut and omission is stated in the text itself.
 */
import { countTokens } from '../llm/count-tokens.js';
import { fence } from '../llm/quote-untrusted.js';
import type { RepoMap, RepoFile } from './build-repo-map.js';
import type { RankedFile, Ranking } from './rank-files.js';
import {
  lazyCosts,
  relevantLines,
  selectLines,
  shownRanges,
  type LineCost,
} from './select-lines.js';

export interface CodeContextOptions {
  /** Tokens (o200k) the whole text may use. */
  budget: number;
  /** Best-ranked files considered (default 12). */
  maxFiles?: number;
}

export interface ContextFile {
  path: string;
  rank: number;
  score: number;
  /** Lines in the file and 1-based ranges shown. */
  lines: number;
  shown: [number, number][];
  truncated: boolean;
  /**
   * The whole file's tokens; undefined for a file so long that no budget could hold it (more
   * lines than the budget has tokens), which is never counted whole.
   */
  fullTokens?: number;
}

export interface OmittedFile {
  path: string;
  reason: string;
  rank?: number;
  fullTokens?: number;
}

export interface CodeContext {
  text: string;
  tokens: number;
  budget: number;
  files: ContextFile[];
  omitted: OmittedFile[];
}

/** Below this many tokens an excerpt says too little; drop a file instead. */
const MIN_EXCERPT = 150;
const HEADER_TOKENS = 30;

interface Candidate {
  file: RepoFile;
  ranked: RankedFile;
  rank: number;
  lines: string[];
  /** Tokens of line i and its newline, counted on first use. */
  cost: LineCost;
  /** Exact, or undefined when over any budget (then `sizeForFit` is a lower bound). */
  fullTokens: number | undefined;
  sizeForFit: number;
  anchors: number[];
}

/** Largest cap C with Σ min(size, C) ≤ available (Infinity when everything fits). */
export function fitCap(sizes: readonly number[], available: number): number {
  const sorted = [...sizes].sort((a, b) => a - b);
  let remaining = available;
  for (let i = 0; i < sorted.length; i++) {
    const size = sorted[i] ?? 0;
    const left = sorted.length - i;
    if (size * left > remaining) return Math.max(0, Math.floor(remaining / left));
    remaining -= size;
  }
  return Infinity;
}

const extensionOf = (path: string): string =>
  /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';

function renderFile(c: Candidate, cap: number): { text: string; entry: ContextFile } {
  const whole = c.fullTokens !== undefined && c.fullTokens <= cap;
  const selected = whole
    ? new Array<boolean>(c.lines.length).fill(true)
    : selectLines(
        c.lines.length,
        c.cost,
        c.anchors,
        Math.max(0, cap - 12 * (c.anchors.length + 1)),
      );
  const ranges = shownRanges(selected);
  const body: string[] = [];
  let next = 1;
  for (const [start, end] of ranges) {
    if (start > next) body.push(`⋯ lines ${next}-${start - 1} not shown ⋯`);
    body.push(...c.lines.slice(start - 1, end));
    next = end + 1;
  }
  if (next <= c.lines.length) body.push(`⋯ lines ${next}-${c.lines.length} not shown ⋯`);
  const shownCount = ranges.reduce((sum, [s, e]) => sum + e - s + 1, 0);
  const what = whole
    ? `whole file, ${c.lines.length} line${c.lines.length === 1 ? '' : 's'}`
    : `${shownCount} of ${c.lines.length} lines shown, cut to fit the budget`;
  const text = `### ${c.file.path} (${what}; rank ${c.rank})\n${fence(body.join('\n'), extensionOf(c.file.path))}`;
  return {
    text,
    entry: {
      path: c.file.path,
      rank: c.rank,
      score: c.ranked.score,
      lines: c.lines.length,
      shown: ranges,
      truncated: !whole,
      ...(c.fullTokens !== undefined ? { fullTokens: c.fullTokens } : {}),
    },
  };
}

function list<T>(items: readonly T[], show: (t: T) => string, max = 12): string {
  const shown = items.slice(0, max).map(show).join(', ');
  return items.length > max ? `${shown}, and ${items.length - max} more` : shown;
}

function renderNotes(files: ContextFile[], omitted: OmittedFile[], weak: RankedFile[]): string {
  const notes: string[] = [];
  const cut = files.filter((f) => f.truncated);
  if (cut.length > 0)
    notes.push(
      `- Cut to fit the token budget: ${list(cut, (f) => `${f.path} (${f.shown.reduce((s, [a, b]) => s + b - a + 1, 0)} of ${f.lines} lines shown)`)}.`,
    );
  if (omitted.length > 0)
    notes.push(`- Not shown: ${list(omitted, (o) => `${o.path} (${o.reason})`)}.`);
  if (weak.length > 0)
    notes.push(
      `- ${weak.length} more file(s) matched the issue weakly and are not shown: ${list(weak, (r) => r.path, 8)}.`,
    );
  return notes.length > 0 ? `## Context notes\n${notes.join('\n')}` : '';
}

/** The whole file's tokens, counted now if they were not (a file left out says its size). */
function tokensOf(c: Candidate): number {
  if (c.fullTokens === undefined) {
    let sum = 0;
    for (let l = 0; l < c.lines.length; l++) sum += c.cost(l);
    c.fullTokens = sum;
  }
  return c.fullTokens;
}

export function buildCodeContext(
  map: RepoMap,
  ranking: Ranking,
  options: CodeContextOptions,
): CodeContext {
  const { budget } = options;
  const maxFiles = options.maxFiles ?? 12;
  const byPath = new Map(map.files.map((f) => [f.path, f]));
  const candidates: Candidate[] = [];
  ranking.files.slice(0, maxFiles).forEach((ranked, i) => {
    const file = byPath.get(ranked.path);
    if (!file) return;
    const lines = file.content.replace(/\n$/, '').split('\n');
    const cost = lazyCosts(lines.length, (l) => countTokens(lines[l] ?? '') + 1);
    // Every line costs at least its newline, and a line with text one more: a file with more
    // than the budget by that count is cut whatever the other files are, and only the lines
    // shown are counted (the central modules of large projects have 5,000–10,000 lines).
    const atLeast = lines.reduce((sum, l) => sum + (l === '' ? 1 : 2), 0);
    let fullTokens: number | undefined;
    if (atLeast <= budget) {
      fullTokens = 0;
      for (let l = 0; l < lines.length; l++) fullTokens += cost(l);
    }
    candidates.push({
      file,
      ranked,
      rank: i + 1,
      lines,
      cost,
      fullTokens,
      sizeForFit: fullTokens ?? atLeast,
      anchors: relevantLines(lines, ranked.focusLines, ranking.query, ranking.refs.identifiers),
    });
  });
  const weak = ranking.files.slice(maxFiles);
  const omitted: OmittedFile[] = ranking.unavailable.map((s) => ({
    path: s.path,
    reason: `named in the issue but ${s.reason}${s.bytes ? `, ${s.bytes} bytes` : ''}`,
  }));

  let filesBudget = budget;
  for (;;) {
    const available = filesBudget - HEADER_TOKENS * candidates.length - 40 - 25 * omitted.length;
    // A lower bound over the budget stands for the exact size: both are over any cap.
    const cap = fitCap(
      candidates.map((c) => c.sizeForFit),
      available,
    );
    const last = candidates[candidates.length - 1];
    if (last && cap < MIN_EXCERPT && (candidates.length > 1 || cap <= 0)) {
      candidates.pop();
      omitted.push({
        path: last.file.path,
        reason: `rank ${last.rank}, ${tokensOf(last)} tokens: no room in the budget`,
        rank: last.rank,
        fullTokens: tokensOf(last),
      });
      continue;
    }
    const rendered = candidates.map((c) => renderFile(c, cap));
    const files = rendered.map((r) => r.entry);
    const parts = [...rendered.map((r) => r.text), renderNotes(files, omitted, weak)].filter(
      (p) => p !== '',
    );
    const text = parts.join('\n\n');
    const tokens = countTokens(text);
    if (tokens <= budget || (candidates.length === 0 && filesBudget < -budget)) {
      if (tokens <= budget) return { text, tokens, budget, files, omitted };
      return { text: '', tokens: 0, budget, files: [], omitted };
    }
    // The estimate was short (markers, headers, notes): shrink by the overshoot and try again.
    filesBudget -= tokens - budget + 16;
  }
}
