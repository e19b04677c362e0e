import { locateHunk } from './locate-hunk.js';
import type { Candidate, OldLine } from './locate-hunk.js';
import type { NormLine } from './normalize-line.js';
import type { HunkLine } from './parse-unified-diff.js';
import { gitHeadingLines, underHeading } from './scope-heading.js';

/** A hunk ready for placement: its lines, its old side, and what its header claimed. */
export interface PreparedHunk {
  lines: HunkLine[];
  old: OldLine[];
  /** 0-based index the header says the old side starts at. */
  statedAt?: number;
  /** Scopes the header names, outermost first (git's function heading, apply_patch's `@@ def f`). */
  headings: string[];
}

export type PlacedBy =
  | 'only-match'
  | 'best-match'
  | 'other-hunks'
  | 'heading'
  | 'hunk-order'
  | 'line-number'
  | 'nearest-line'
  | 'no-context';

export interface Placement {
  hunk: number;
  at: number;
  candidate: Candidate;
  placedBy: PlacedBy;
}

export type PlacementProblem =
  | { hunk: number; kind: 'nowhere' }
  | { hunk: number; kind: 'no-context' }
  | { hunk: number; kind: 'ambiguous'; positions: number[] }
  | { hunk: number; kind: 'conflict'; other: number; line: number }
  | { hunk: number; kind: 'already-applied'; line: number }
  | { hunk: number; kind: 'indent'; reason: string };

/** Up to this match level a line is there as written (trailing whitespace and tab width aside). */
const LITERAL = 2;

/** Candidates whose costs differ by less than this have equal evidence (a tie). */
const EQUAL_EVIDENCE = 0.75;

/** What a hunk does to the file when its old side starts at `at`. */
export interface HunkEffect {
  ctx: Set<number>;
  del: Set<number>;
  /** Insertion point (before file line q) → lines inserted there, in order. */
  ins: Map<number, string[]>;
}

export function hunkEffect(lines: readonly HunkLine[], at: number): HunkEffect {
  const effect: HunkEffect = { ctx: new Set(), del: new Set(), ins: new Map() };
  let idx = at;
  for (const line of lines) {
    if (line.kind === ' ') effect.ctx.add(idx++);
    else if (line.kind === '-') effect.del.add(idx++);
    else effect.ins.set(idx, [...(effect.ins.get(idx) ?? []), line.text]);
  }
  return effect;
}

/** The first file line two hunks fight over, if any: both change it, or one keeps what the other removes. */
export function conflictLine(a: HunkEffect, b: HunkEffect): number | undefined {
  for (const d of a.del) if (b.del.has(d) || b.ctx.has(d)) return d;
  for (const d of b.del) if (a.ctx.has(d)) return d;
  for (const q of a.ins.keys()) if (b.ins.has(q)) return q;
  return undefined;
}

/** What placement has decided so far: placed hunks (with their effects), open ones, problems. */
interface Placer {
  file: readonly NormLine[];
  hunks: readonly PreparedHunk[];
  problems: PlacementProblem[];
  placed: Map<number, Placement>;
  effects: Map<number, HunkEffect>;
  /** Hunks with equal evidence at several places: their remaining candidates. */
  open: Map<number, Candidate[]>;
}

function place(p: Placer, hunk: number, candidate: Candidate, placedBy: PlacedBy): void {
  p.placed.set(hunk, { hunk, at: candidate.at, candidate, placedBy });
  p.effects.set(hunk, hunkEffect(p.hunks[hunk]?.lines ?? [], candidate.at));
  p.open.delete(hunk);
}

/** Each hunk located on its own: placed when one candidate has the best evidence, else open. */
function placeAlone(p: Placer): void {
  const { file } = p;
  p.hunks.forEach((hunk, index) => {
    if (hunk.old.length === 0) {
      // No context at all: only the two ends of the file can be named without context.
      const at = hunk.statedAt === undefined ? undefined : hunk.statedAt + 1;
      if (file.length === 0 || at === 0 || at === file.length)
        place(
          p,
          index,
          { at: file.length === 0 ? 0 : (at ?? 0), cost: 0, levels: [] },
          'no-context',
        );
      else p.problems.push({ hunk: index, kind: 'no-context' });
      return;
    }
    const candidates = locateHunk(file, hunk.old);
    const best = candidates.filter((c) => c.cost - (candidates[0]?.cost ?? 0) < EQUAL_EVIDENCE);
    const first = best[0];
    if (!first) p.problems.push({ hunk: index, kind: 'nowhere' });
    else if (best.length === 1)
      place(p, index, first, candidates.length === 1 ? 'only-match' : 'best-match');
    else p.open.set(index, best);
  });
}

/**
 * Candidates that fight a placed hunk drop out: the one left wins, or the one under every scope
 * the header names. True when a hunk was placed.
 */
function byOtherHunksAndHeadings(p: Placer, before: readonly number[]): boolean {
  let progress = false;
  for (const [index, candidates] of p.open) {
    const free = candidates.filter((c) => {
      const effect = hunkEffect(p.hunks[index]?.lines ?? [], c.at);
      return [...p.effects.values()].every((e) => conflictLine(effect, e) === undefined);
    });
    if (free.length === 1 && free[0]) {
      place(p, index, free[0], 'other-hunks');
      progress = true;
      continue;
    }
    p.open.set(index, free);
    const headings = p.hunks[index]?.headings ?? [];
    if (headings.length > 0) {
      const matching = free.filter((c) =>
        headings.every((h) => underHeading(p.file, before, c.at, h)),
      );
      if (matching.length === 1 && matching[0]) {
        place(p, index, matching[0], 'heading');
        progress = true;
      }
    }
  }
  return progress;
}

/** The one candidate between its placed neighbours (`betweenNeighbours`). True when one was placed. */
function byHunkOrder(p: Placer): boolean {
  let progress = false;
  for (const [index, candidates] of p.open) {
    const chosen = betweenNeighbours(index, candidates, [...p.placed.values()]);
    if (chosen) {
      place(p, index, chosen, 'hunk-order');
      progress = true;
    }
  }
  return progress;
}

/** The candidate at a trusted stated line, or clearly nearest to it. True when one was placed. */
function byLineNumbers(p: Placer): boolean {
  let progress = false;
  const offset = trustedOffset([...p.placed.values()], p.hunks);
  const witnessed = [...p.placed.values()].some((x) => x.placedBy !== 'no-context');
  for (const [index, candidates] of p.open) {
    const stated = p.hunks[index]?.statedAt;
    if (stated === undefined) continue;
    // A number is believed when placed hunks vouch for the numbers, or when the hunk's lines
    // are there exactly, as `git apply` requires; a fuzzy fit at the stated line is not enough.
    const atStated =
      offset === undefined
        ? []
        : candidates.filter(
            (c) => c.at === stated + offset && (witnessed || c.levels.every((l) => l <= LITERAL)),
          );
    const chosen = atStated.length === 1 ? atStated[0] : clearlyNearest(candidates, stated);
    if (chosen) {
      place(p, index, chosen, atStated.length === 1 ? 'line-number' : 'nearest-line');
      progress = true;
    }
  }
  return progress;
}

/** Every pair of placed hunks that fight over a line, the later one named. */
function conflicts(
  placements: readonly Placement[],
  effects: ReadonlyMap<number, HunkEffect>,
): PlacementProblem[] {
  const problems: PlacementProblem[] = [];
  for (let i = 0; i < placements.length; i++) {
    for (let j = i + 1; j < placements.length; j++) {
      const a = placements[i];
      const b = placements[j];
      if (!a || !b) continue;
      const line = conflictLine(effects.get(a.hunk)!, effects.get(b.hunk)!);
      if (line !== undefined)
        problems.push({ hunk: b.hunk, kind: 'conflict', other: a.hunk, line });
    }
  }
  return problems;
}

/**
 * Chooses one position per hunk, locating every hunk on its own (so hunks may come in any order
 * and with any line numbers). Equal evidence at several places is settled only by independent
 * evidence: the other hunks' positions, the scope the header names, the order of the placed hunks,
 * line numbers that the unambiguous hunks have shown to be right (or, alone, a number where the
 * hunk's lines stand exactly, as git would take it), or a line number clearly nearest to one
 * place. Otherwise the hunk is refused as ambiguous.
 */
export function placeHunks(
  file: readonly NormLine[],
  hunks: readonly PreparedHunk[],
): { placements: Placement[]; problems: PlacementProblem[] } {
  const p: Placer = {
    file,
    hunks,
    problems: [],
    placed: new Map(),
    effects: new Map(),
    open: new Map(),
  };
  placeAlone(p);
  const before = p.open.size > 0 ? gitHeadingLines(file) : [];
  let progress = true;
  while (progress && p.open.size > 0) {
    progress = byOtherHunksAndHeadings(p, before);
    if (progress || p.open.size === 0) continue;
    progress = byHunkOrder(p) || byLineNumbers(p);
  }
  for (const [index, candidates] of p.open) {
    if (candidates.length === 0) p.problems.push({ hunk: index, kind: 'nowhere' });
    else
      p.problems.push({ hunk: index, kind: 'ambiguous', positions: candidates.map((c) => c.at) });
  }
  const placements = [...p.placed.values()].sort((a, b) => a.at - b.at || a.hunk - b.hunk);
  return { placements, problems: [...p.problems, ...conflicts(placements, p.effects)] };
}

/**
 * Hunks are written in file order. When the placed hunks confirm it (at least two, in ascending
 * order), a hunk between two of them belongs between their places: the one candidate there wins.
 */
function betweenNeighbours(
  index: number,
  candidates: readonly Candidate[],
  placed: readonly Placement[],
): Candidate | undefined {
  const sorted = [...placed].sort((a, b) => a.hunk - b.hunk);
  if (sorted.length < 2 || sorted.some((p, i) => i > 0 && p.at <= (sorted[i - 1]?.at ?? 0)))
    return undefined;
  const prev = sorted.filter((p) => p.hunk < index).pop();
  const next = sorted.find((p) => p.hunk > index);
  if (!prev || !next) return undefined;
  const inside = candidates.filter((c) => c.at > prev.at && c.at < next.at);
  return inside.length === 1 ? inside[0] : undefined;
}

/**
 * Line numbers written by an LLM are often off by a few dozen lines but rarely by more: the
 * candidate nearest the stated line wins when every other one is both four times and
 * NEAR_MARGIN lines farther away. Anything closer is a tie, and ties are refused.
 */
const NEAR_MARGIN = 60;

function clearlyNearest(candidates: readonly Candidate[], stated: number): Candidate | undefined {
  const byDistance = [...candidates].sort(
    (a, b) => Math.abs(a.at - stated) - Math.abs(b.at - stated),
  );
  const [first, second] = byDistance;
  if (!first || !second) return first;
  const d1 = Math.abs(first.at - stated);
  const d2 = Math.abs(second.at - stated);
  return d2 >= 4 * d1 && d2 - d1 >= NEAR_MARGIN ? first : undefined;
}

/**
 * The offset by which stated line numbers may be trusted, or undefined when they may not. With
 * no placed hunk to check them against, only an exact hit is believed; otherwise every placed
 * hunk must agree, and a non-zero offset needs two witnesses.
 */
function trustedOffset(
  placed: readonly Placement[],
  hunks: readonly PreparedHunk[],
): number | undefined {
  const offsets = placed.flatMap((p) => {
    const stated = hunks[p.hunk]?.statedAt;
    return stated === undefined || p.placedBy === 'no-context' ? [] : [p.at - stated];
  });
  const first = offsets[0];
  if (first === undefined) return 0;
  if (offsets.some((o) => o !== first)) return undefined;
  return first === 0 || offsets.length >= 2 ? first : undefined;
}
