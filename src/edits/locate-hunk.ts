import { DIFFERENT, SAME_LINE_MAX, SIMILAR, matchLevel } from './match-level.js';
import type { MatchLevel } from './match-level.js';
import type { NormLine } from './normalize-line.js';
import { similarity } from './similarity.js';

/** One line of a hunk's old side (context or removed), ready for comparison. */
export interface OldLine {
  kind: ' ' | '-';
  norm: NormLine;
  /** A trailing blank line that may just be the gap after the hunk: free to match or not. */
  optional: boolean;
}

/** A position where the hunk's old side fits, with how well each line matched. */
export interface Candidate {
  /** 0-based index of the file line aligned with the first old-side line. */
  at: number;
  /** Lower is better: the sum of per-line costs. */
  cost: number;
  levels: MatchLevel[];
}

/**
 * Cost per match level. Trailing whitespace and tabs-for-spaces cost nothing: they are no evidence
 * either way (a copy of the same lines elsewhere must not win just because the LLM kept its
 * whitespace better). A changed indentation width is weak evidence, a misquote strong.
 */
const COST: Record<MatchLevel, number> = { 0: 0, 1: 0, 2: 0, 3: 1, 4: 2, 5: 9 };

/** A similar line costs COST[4] plus this much per unit of dissimilarity (at most 2 + 2.8). */
const MISQUOTE_SCALE = 7;

/** A misquoted context line must still be this similar to the file's line to count as "similar". */
const SIMILAR_RATIO = 0.6;

/** A misquoted distinctive line this close is evidence of the place, like an exact one. */
const STRONG_RATIO = 0.8;

/**
 * Every position where a hunk's old side can sit, judged line by line: removed lines must be the
 * same line (whitespace aside) because they will be deleted; a few context lines may be misquoted
 * because context is only used to find the place and is never written. A position also needs at
 * least one distinctive line (not just `}` or blanks) that matches or nearly matches, and more
 * matches than misses.
 */
export function locateHunk(file: readonly NormLine[], old: readonly OldLine[]): Candidate[] {
  const n = file.length;
  const m = old.length;
  let required = m;
  while (required > 0 && old[required - 1]?.optional) required--;
  const contextCount = old.filter((l) => l.kind === ' ' && !l.optional).length;
  const allowedMisses = contextCount === 0 ? 0 : Math.max(1, Math.floor(contextCount / 3));
  const needsDistinctive = old.some((l) => !l.norm.trivial);
  const candidates: Candidate[] = [];

  for (let at = 0; at + required <= n; at++) {
    const levels: MatchLevel[] = [];
    let misses = 0;
    let ok = true;
    for (let i = 0; i < m && ok; i++) {
      const line = old[i];
      const fileLine = file[at + i];
      if (!line) break;
      if (!fileLine) {
        levels.push(EXACT_FREE);
        continue; // only optional trailing lines can hang past the end of the file
      }
      const level = matchLevel(fileLine, line.norm);
      levels.push(level);
      if (level > SAME_LINE_MAX && !line.optional) {
        if (line.kind === '-') ok = false;
        else if (++misses > allowedMisses) ok = false;
      }
    }
    if (!ok) continue;
    // Weigh the evidence: a removed line that is there counts double (it must be exact), a close
    // misquote counts like a match, a far one half against, an unrelated line fully against.
    // A hunk quoted with one uniform indentation shift is as good a fit as an exact quote: its
    // indentation-only differences cost nothing, so an exact copy elsewhere is only a tie.
    const shift = uniformShift(file, old, at, levels);
    let cost = 0;
    let support = 0;
    let against = 0;
    let distinctive = false;
    levels.forEach((level, i) => {
      const line = old[i];
      const fileLine = file[at + i];
      if (!line) return;
      if (line.optional) {
        levels[i] = EXACT_FREE; // free either way, so it does not colour the match report
        return;
      }
      if (level <= SAME_LINE_MAX) {
        support += line.kind === '-' ? 2 : 1;
        if (!line.norm.trivial) distinctive = true;
        cost += shift && fileLine && fileLine.body === line.norm.body ? 0 : COST[level];
        return;
      }
      const ratio = fileLine ? similarity(fileLine.collapsed, line.norm.collapsed) : 0;
      if (ratio < SIMILAR_RATIO) {
        against += 1;
        cost += COST[DIFFERENT];
        return;
      }
      levels[i] = SIMILAR;
      cost += COST[SIMILAR] + MISQUOTE_SCALE * (1 - ratio); // the closer the quote, the better
      if (ratio >= STRONG_RATIO) {
        support += 1;
        if (!line.norm.trivial) distinctive = true;
      } else against += 0.5;
    });
    if (support <= against || (needsDistinctive && !distinctive)) continue;
    candidates.push({ at, cost, levels });
  }
  return candidates.sort((a, b) => a.cost - b.cost || a.at - b.at);
}

const EXACT_FREE: MatchLevel = 0;

/** Do all non-blank same lines differ from the file by one non-zero indentation shift only? */
function uniformShift(
  file: readonly NormLine[],
  old: readonly OldLine[],
  at: number,
  levels: readonly MatchLevel[],
): boolean {
  let shift: number | undefined;
  for (let i = 0; i < old.length; i++) {
    const line = old[i];
    const fileLine = file[at + i];
    const level = levels[i];
    if (!line || !fileLine || level === undefined || line.optional || line.norm.body === '')
      continue;
    if (level > SAME_LINE_MAX) continue; // misquotes are judged on their own
    if (fileLine.body !== line.norm.body) return false;
    const delta = fileLine.cols[1] - line.norm.cols[1];
    if (shift === undefined) shift = delta;
    else if (delta !== shift) return false;
  }
  return shift !== undefined && shift !== 0;
}
