/**
 * "Did you mean": the known name nearest to a misspelt one, by edit distance (insertions,
 * deletions, substitutions and swaps of two neighbours), with case and `-`/`_` set aside
 * (`code-strategy` is `code_strategy`). Only near misses: at most a third of the name's length.
 */

function normalized(name: string): string {
  return name.toLowerCase().replace(/-/g, '_');
}

/** Optimal string alignment distance (Damerau–Levenshtein without repeated edits). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0]!.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]!.push(d);
    }
  }
  return rows[a.length]![b.length]!;
}

/** The one known name nearest to `name`, when it is near enough and no other is as near. */
export function didYouMean(name: string, known: readonly string[]): string | undefined {
  const wanted = normalized(name);
  const limit = Math.max(1, Math.floor(wanted.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  let tie = false;
  for (const candidate of known) {
    const d = editDistance(wanted, normalized(candidate));
    if (d < bestDistance) [best, bestDistance, tie] = [candidate, d, false];
    else if (d === bestDistance) tie = true;
  }
  return best !== undefined && bestDistance <= limit && !tie ? best : undefined;
}
