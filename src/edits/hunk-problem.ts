import type { PlacementProblem } from './place-hunks.js';

/**
 * Why one hunk is refused: it cannot be placed (`PlacementProblem`), it replaces real code with a
 * placeholder (`elided`: the placeholder, its index in the hunk, the lines it would delete), or it is the last hunk
 * of an answer that was cut off (`cut`: why it looks so).
 */
export type HunkProblem =
  | PlacementProblem
  | { hunk: number; kind: 'elided'; marker: string; at: number; lost: string[] }
  | { hunk: number; kind: 'cut'; why: string };
