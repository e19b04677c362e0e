/**
 * The code of the best-ranked files, fitted to a token budget. When everything does not fit,
 * the largest files are cut first (all files are capped at the same size, the biggest lose the
 * most), each cut keeping the lines around what the issue points at; only when even that fails
 * are the lowest-ranked files left out. Every cut and omission is stated in the text itself.
 */
import { countTokens } from '../llm/count-tokens.js';
import { fence } from '../llm/quote-untrusted.js';
import { shownTarget } from '../repo-files/refusal.js';
import type { RepoMap, RepoFile, SkippedFile } from './build-repo-map.js';
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
  /** The whole file's tokens; undefined for a file cut without counting it whole (`fitCapLazy`). */
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
  /**
   * The whole file's tokens once counted (`tokensOf`): only a file that may fit whole is. The
   * central modules of large projects have 5,000–10,000 lines, and of those only the lines shown
   * are counted.
   */
  fullTokens: number | undefined;
  /** A lower bound of `fullTokens`. */
  atLeast: number;
  anchors: number[];
}

/** A size known at least as `lower`, exactly when asked (`exact`, which may cost a count). */
export interface LazySize {
  lower: number;
  exact: () => number;
}

/**
 * Largest cap C with Σ min(size, C) ≤ available (Infinity when everything fits). Sizes are
 * taken smallest first, and a size is made exact only when it is the smallest key left and under
 * the share: a size whose bound is over the cap is never counted, and every size not counted is
 * over the cap (so its file is cut whatever its exact size).
 */
export function fitCapLazy(items: readonly LazySize[], available: number): number {
  const key = items.map((item) => item.lower);
  const exact = items.map(() => false);
  const done = items.map(() => false);
  let remaining = available;
  for (let left = items.length; left > 0;) {
    let k = -1;
    for (let j = 0; j < items.length; j++)
      if (!done[j] && (k < 0 || (key[j] ?? 0) < (key[k] ?? 0))) k = j;
    // Every size left is at least the smallest key: over the share, a bound says so as well as
    // an exact size would.
    const size = key[k] ?? 0;
    if (size * left > remaining) return Math.max(0, Math.floor(remaining / left));
    if (!exact[k]) {
      key[k] = items[k]!.exact();
      exact[k] = true;
      continue; // a larger bound may now be the smallest
    }
    remaining -= size;
    done[k] = true;
    left--;
  }
  return Infinity;
}

/** Largest cap C with Σ min(size, C) ≤ available (Infinity when everything fits). */
export function fitCap(sizes: readonly number[], available: number): number {
  return fitCapLazy(
    sizes.map((size) => ({ lower: size, exact: () => size })),
    available,
  );
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

/** Why a file the issue names is not shown: a link says what it links to, never shows it. */
function unavailableWhy(s: SkippedFile): string {
  if (s.reason === 'symlink' && s.target !== undefined)
    return `a symbolic link to \`${shownTarget(s.target)}\` (not followed)`;
  return `${s.reason}${s.bytes ? `, ${s.bytes} bytes` : ''}`;
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
    candidates.push({
      file,
      ranked,
      rank: i + 1,
      lines,
      cost,
      fullTokens: undefined,
      // Every line costs at least its newline, and a line with text one more.
      atLeast: lines.reduce((sum, l) => sum + (l === '' ? 1 : 2), 0),
      anchors: relevantLines(lines, ranked.focusLines, ranking.query, ranking.refs.identifiers),
    });
  });
  const weak = ranking.files.slice(maxFiles);
  const omitted: OmittedFile[] = ranking.unavailable.map((s) => ({
    path: s.path,
    reason: `named in the issue but ${unavailableWhy(s)}`,
  }));

  let filesBudget = budget;
  for (;;) {
    const available = filesBudget - HEADER_TOKENS * candidates.length - 40 - 25 * omitted.length;
    const cap = fitCapLazy(
      candidates.map((c) => ({ lower: c.atLeast, exact: () => tokensOf(c) })),
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
