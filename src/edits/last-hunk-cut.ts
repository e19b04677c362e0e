import { cutHunkReason } from './cut-hunk-reason.js';
import type { HunkProblem } from './hunk-problem.js';
import { hunkShape } from './hunk-shape.js';
import { openAtEnd } from './open-at-end.js';
import type { NormLine } from './normalize-line.js';
import type { Hunk } from './parse-unified-diff.js';
import type { Placement } from './place-hunks.js';

/**
 * Whether an unchanged line the answer stops in is the start of the file's line there: its
 * text, or only its indentation, where the file's line goes on.
 */
function cutShort(written: string, there: string | undefined): boolean {
  if (there === undefined || there.trim() === '') return false;
  const start = written.trim() === '' ? written : written.trimEnd();
  return start.length > 0 && there.length > start.length && there.startsWith(start);
}

/** How an answer's text ends, for the file that holds its last hunk. */
export interface AnswerEnding {
  /** The last hunk of the whole answer (in the order written). */
  hunk: Hunk;
  /** The text stops in the middle of that hunk's last line. */
  endsMidLine: boolean;
  /** Unchanged lines around the changes of the answer's hunks in other files, if they show it. */
  crossDepth?: number;
}

/**
 * The context depth the placed hunks of this file show: unchanged lines kept where the file had
 * more (the last hunk's own trailing lines are what is being judged, so only its leading ones).
 */
function depthOf(
  hunks: readonly Hunk[],
  placements: readonly Placement[],
  fileLength: number,
  last: number,
): number | undefined {
  const seen: number[] = [];
  for (const p of placements) {
    const shape = hunkShape(hunks[p.hunk]!);
    if (shape.changes === 0) continue;
    if (p.at > 0) seen.push(shape.lead);
    if (p.hunk !== last && p.at + shape.oldLines < fileLength) seen.push(shape.trail);
  }
  return seen.length > 0 ? Math.min(...seen) : undefined;
}

/**
 * The `cut` problem of the answer's last hunk when it is in this file and looks cut off
 * (`cutHunkReason`), judged with its placement and what the file's other hunks show.
 */
export function lastHunkCut(
  hunks: readonly Hunk[],
  placements: readonly Placement[],
  file: readonly NormLine[],
  ending: AnswerEnding,
): HunkProblem | undefined {
  const index = hunks.indexOf(ending.hunk);
  if (index < 0) return undefined;
  const fileLength = file.length;
  const at = placements.find((p) => p.hunk === index)?.at;
  const shape = hunkShape(ending.hunk);
  const last = ending.hunk.lines[ending.hunk.lines.length - 1];
  const there = at === undefined ? undefined : file[at + shape.oldLines - 1]?.trimEnd;
  const written = last?.text.trimEnd() ?? '';
  const lines = ending.hunk.lines;
  const why = cutHunkReason({
    shape,
    ...(at === undefined ? {} : { at }),
    fileLength,
    ...withDepth(depthOf(hunks, placements, fileLength, index) ?? ending.crossDepth),
    endsMidLine: ending.endsMidLine,
    open: openAtEnd(
      lines.filter((l) => l.kind === '+').map((l) => l.text),
      lines.filter((l) => l.kind === '-').map((l) => l.text),
    ),
    partialLine: ending.endsMidLine && last?.kind === ' ' && cutShort(last.text, there),
    lastBlank: last?.kind === '+' && written.trim() === '',
  });
  return why === undefined ? undefined : { hunk: index, kind: 'cut', why };
}

const withDepth = (depth: number | undefined): { depth?: number } =>
  depth === undefined ? {} : { depth };
