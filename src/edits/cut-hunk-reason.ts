import type { HunkShape } from './hunk-shape.js';

/** What is known about the last hunk of an answer once the file is read. */
export interface LastHunkFacts {
  shape: HunkShape;
  /** 0-based file line where its old side starts; undefined when it could not be placed. */
  at?: number;
  fileLength: number;
  /** Unchanged lines the answer's other hunks keep around their changes, when they show it. */
  depth?: number;
  /** The answer's text stops in the middle of this hunk's last line (no newline after it). */
  endsMidLine: boolean;
  /** The hunk's added lines stop inside a bracket, string or comment (`open-at-end.ts`). */
  open: boolean;
  /** Its last line, unchanged, stops where the file's line goes on (it was cut mid-line). */
  partialLine: boolean;
  /** Its last line is an added line of nothing but indentation. */
  lastBlank: boolean;
}

const KIND = { '-': 'a removed ("-")', '+': 'an added ("+")', ' ': 'an unchanged' } as const;

/**
 * Why the last hunk of an answer looks cut off (a model stopped at its output limit), or
 * undefined. A hunk whose header counts add up is complete as written. Otherwise it is cut when
 * it has no change at all, when it ends with a changed line while the file goes on after it (a
 * removed line whose replacement never came, a half-written added line), when it stops in the
 * middle of an unchanged line, or when fewer unchanged lines follow its last change than the diff
 * keeps elsewhere and the file has them. At the end of
 * the file a hunk may end with its change; there it is cut when its last changed lines only
 * remove (a replacement that never came: deleting the file's last lines needs counts that add
 * up), or when the answer stops mid-line inside a bracket, string or comment, after nothing but
 * indentation, or short of what its header counts. (Counts that fall short are no evidence there
 * on their own: models often miscount a hunk they wrote in full.)
 */
/** At the end of the file a hunk may end with its change; these say it was cut there all the same. */
function cutAtEnd(facts: LastHunkFacts, ending: string): string | undefined {
  const { shape } = facts;
  if (shape.trail > 0) return undefined;
  if (shape.endsRemovingOnly)
    return (
      'it ends with removed lines that nothing replaces, at the end of the file (to delete ' +
      'the last lines of a file, give the hunk numbered counts that add up)'
    );
  if (!facts.endsMidLine) return undefined;
  if (facts.open)
    return `it ends in the middle of ${ending} line, inside an open bracket, string or comment`;
  if (facts.lastBlank) return 'it stops after the indentation of its last added line';
  return shape.countsShort
    ? `it stops in the middle of ${ending} line, and its header promises more lines than arrived`
    : undefined;
}

export function cutHunkReason(facts: LastHunkFacts): string | undefined {
  const { shape } = facts;
  // Counts that add up make a hunk complete, unless its last line stops at its indentation.
  if (shape.countsExact)
    return facts.endsMidLine && facts.lastBlank
      ? 'it stops after the indentation of its last added line'
      : undefined;
  if (shape.changes === 0)
    return 'it has no added or removed line: the answer stops before the change';
  const ending = KIND[shape.lastKind ?? ' '];
  if (facts.at === undefined)
    return shape.trail === 0
      ? `it ends with ${ending} line and does not match the file`
      : undefined;
  const after = Math.max(0, facts.fileLength - (facts.at + shape.oldLines));
  // Whatever followed a half-written line is lost, changes included.
  if (facts.partialLine) return 'it stops in the middle of an unchanged line';
  const short = shape.countsShort ? '; its header promises more lines than arrived' : '';
  if (after === 0) return cutAtEnd(facts, ending);
  if (shape.trail === 0)
    return `it ends with ${ending} line while the file goes on after it (no unchanged line follows the change)${short}`;
  const available = after + shape.trail;
  const want = Math.min(facts.depth ?? (shape.countsShort ? 3 : 0), available);
  if (shape.trail < want)
    return (
      `only ${shape.trail} unchanged line${shape.trail === 1 ? '' : 's'} follow${shape.trail === 1 ? 's' : ''} its last change, ` +
      `where the diff keeps ${want} and the file goes on${short}`
    );
  return undefined;
}
