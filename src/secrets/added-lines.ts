/** Which lines of a file's new text a change added (1-based); a new file's lines are all added. */
import { diffLines } from 'diff';

export function addedLines(before: string | undefined, after: string): Set<number> {
  const added = new Set<number>();
  if (before === undefined) {
    const count = lineStarts(after).length;
    for (let line = 1; line <= count; line++) added.add(line);
    return added;
  }
  let line = 1;
  for (const part of diffLines(before, after)) {
    const count = part.count ?? 0;
    if (part.removed) continue;
    if (part.added) for (let i = 0; i < count; i++) added.add(line + i);
    line += count;
  }
  return added;
}

/** The offset where each line of `text` starts (a last line without a break counts). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (
    let at = text.indexOf('\n');
    at >= 0 && at + 1 < text.length;
    at = text.indexOf('\n', at + 1)
  )
    starts.push(at + 1);
  return text.length === 0 ? [] : starts;
}

/** The 1-based line of `offset`, given `lineStarts(text)`. */
export function lineAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}
