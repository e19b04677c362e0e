import type { OldLine } from './locate-hunk.js';
import { normalizeLine } from './normalize-line.js';
import type { Hunk } from './parse-unified-diff.js';
import type { PreparedHunk } from './place-hunks.js';

/** Splits out a hunk's old side (what must be found in the file) and what its header claims. */
export function prepareHunk(hunk: Hunk): PreparedHunk {
  const old: OldLine[] = hunk.lines
    .filter((l) => l.kind !== '+')
    .map((l) => ({
      kind: l.kind === '-' ? '-' : ' ',
      norm: normalizeLine(l.text),
      optional: l.optional,
    }));
  return {
    lines: hunk.lines,
    old,
    ...(hunk.oldStart === undefined ? {} : { statedAt: hunk.oldStart - 1 }),
    headings: [...(hunk.outerHeadings ?? []), hunk.heading].filter((h) => h !== ''),
  };
}
