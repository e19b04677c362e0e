import type { Hunk } from './parse-unified-diff.js';

/** What a hunk's lines say about its own completeness, before it is placed. */
export interface HunkShape {
  /** Unchanged lines before the first change. */
  lead: number;
  /** Unchanged lines after the last change (blank lines that may be the gap after it included). */
  trail: number;
  /** Added and removed lines. */
  changes: number;
  /** Lines of the old side (context and removed), and of the new side. */
  oldLines: number;
  newLines: number;
  /** The header has counts, and they equal the lines that arrived. */
  countsExact: boolean;
  /** The header has counts, and fewer lines arrived than it promises. */
  countsShort: boolean;
  /** The last line: ` `, `-` or `+`. */
  lastKind?: ' ' | '-' | '+';
  /** The changed lines after the last unchanged one only remove (nothing replaces them). */
  endsRemovingOnly: boolean;
}

export function hunkShape(hunk: Hunk): HunkShape {
  const { lines } = hunk;
  const first = lines.findIndex((l) => l.kind !== ' ');
  let last = lines.length - 1;
  while (last >= 0 && lines[last]?.kind === ' ') last--;
  const oldLines = lines.filter((l) => l.kind !== '+').length;
  const newLines = lines.filter((l) => l.kind !== '-').length;
  const declared = hunk.oldCount !== undefined && hunk.newCount !== undefined;
  let run = lines.length;
  while (run > 0 && lines[run - 1]?.kind !== ' ') run--;
  const endRun = lines.slice(run);
  return {
    lead: first < 0 ? lines.length : first,
    trail: first < 0 ? 0 : lines.length - 1 - last,
    changes: lines.filter((l) => l.kind !== ' ').length,
    oldLines,
    newLines,
    countsExact: declared && oldLines === hunk.oldCount && newLines === hunk.newCount,
    countsShort: declared && (oldLines < (hunk.oldCount ?? 0) || newLines < (hunk.newCount ?? 0)),
    ...(lines.length > 0 ? { lastKind: lines[lines.length - 1]?.kind } : {}),
    endsRemovingOnly: endRun.length > 0 && endRun.every((l) => l.kind === '-'),
  };
}
