import type { NormLine } from './normalize-line.js';

/**
 * How closely a diff line matches a file line, best first:
 * 0 identical · 1 only trailing whitespace differs · 2 indentation written with tabs instead of
 * spaces (same width) · 3 whitespace differs anywhere · 5 different. (4, "similar", is decided by
 * the caller with a similarity ratio, because it is costly and needed only for near misses.)
 */
export type MatchLevel = 0 | 1 | 2 | 3 | 4 | 5;

export const EXACT: MatchLevel = 0;
export const SIMILAR: MatchLevel = 4;
export const DIFFERENT: MatchLevel = 5;

/** The highest level at which a line still counts as "the same line". */
export const SAME_LINE_MAX: MatchLevel = 3;

export function matchLevel(file: NormLine, diff: NormLine): MatchLevel {
  if (file.text === diff.text) return 0;
  if (file.trimEnd === diff.trimEnd) return 1;
  if (file.body === diff.body) {
    const [a2, a4, a8] = file.cols;
    const [b2, b4, b8] = diff.cols;
    if (a2 === b2 || a4 === b4 || a8 === b8) return 2;
    return 3;
  }
  if (file.collapsed === diff.collapsed) return 3;
  return 5;
}
