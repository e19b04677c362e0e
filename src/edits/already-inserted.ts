import { SAME_LINE_MAX, matchLevel } from './match-level.js';
import type { MatchLevel } from './match-level.js';
import type { NormLine } from './normalize-line.js';
import { normalizeLine } from './normalize-line.js';
import type { HunkLine } from './parse-unified-diff.js';

/**
 * A hunk that only adds lines, sent again after it was applied, still finds its place: its
 * context is there, with the first copy of the added lines in between (read as misquoted
 * context), or with no context on the side where the lines went. Inserting again would duplicate
 * them. `git apply` refuses such a hunk because its old side is no longer contiguous, or no
 * longer at the end (start) of the file when it has no trailing (leading) context. Here the same
 * evidence is read the other way: when the old side does not fit the way git requires and the
 * hunk's new side (context and added lines, in order) is already in the file where it landed,
 * the hunk is reported as already applied. So is a hunk whose old side fits but whose new side
 * is already at another copy of the same lines, unless its line number points at the copy that
 * lacks them. Returns the 0-based line where the new side is.
 */
export function alreadyInserted(
  file: readonly NormLine[],
  lines: readonly HunkLine[],
  at: number,
  levels: readonly MatchLevel[],
  statedAt?: number,
): number | undefined {
  const kept = lines.filter((l) => !l.optional);
  if (kept.some((l) => l.kind === '-') || !kept.some((l) => l.kind === '+')) return undefined;
  if (!kept.some((l) => l.kind === ' ')) return undefined;
  const oldLength = kept.filter((l) => l.kind === ' ').length;
  const contiguous = levels.every((level) => level <= SAME_LINE_MAX);
  const trailing = kept[kept.length - 1]?.kind === ' ';
  const leadingContext = kept[0]?.kind === ' ';
  const asGitWants =
    contiguous && (trailing || at + oldLength === file.length) && (leadingContext || at === 0);
  const side = kept.map((l) => normalizeLine(l.text));
  const sideAt = (p: number): boolean =>
    side.every((line, i) => {
      const f = file[p + i];
      return f !== undefined && matchLevel(f, line) <= SAME_LINE_MAX;
    });
  if (!asGitWants) {
    // The first copy sits between the context lines the hunk quotes.
    const from = Math.max(0, at - side.length);
    const to = Math.min(file.length - side.length, at + oldLength);
    for (let p = from; p <= to; p++) if (sideAt(p)) return p;
  }
  // The new side may be whole at another copy of the same lines (a repeated block): then the
  // lines were inserted there, unless the old side fits as git wants and the hunk's line number
  // points at the copy that does not have them yet.
  for (let p = 0; p + side.length <= file.length; p++) {
    if (!sideAt(p)) continue;
    const nearer = statedAt !== undefined && Math.abs(statedAt - at) < Math.abs(statedAt - p);
    if (asGitWants && nearer) continue;
    return p;
  }
  return undefined;
}
