/**
 * Chooses which lines of a too-large file to show: the lines the issue points at, then the
 * lines around them, nearest first, until the token cap is reached. Pure.
 *
 * Files of thousands of lines are common among the best-ranked (the central modules of a large
 * project), so neither function does per-line work that the answer does not need: term counts
 * come from the query's needle scan, and lines are costed only as they are reached.
 */
import { countTerms, type TermCache, type TermQuery } from './split-words.js';

/** For each line, how many of `identifiers` it holds (`line.includes(id)`), by one walk per name. */
function identifierHits(lines: readonly string[], identifiers: readonly string[]): Uint16Array {
  const hits = new Uint16Array(lines.length);
  const text = lines.join('\n');
  for (const id of identifiers) {
    if (id === '') {
      hits.forEach((h, i) => (hits[i] = h + 1)); // in every line
      continue;
    }
    if (id.includes('\n')) continue; // in none
    let line = 0;
    let lineEnd = (lines[0] ?? '').length;
    let marked = -1;
    for (let at = text.indexOf(id); at >= 0; at = text.indexOf(id, at + 1)) {
      while (at > lineEnd) lineEnd += 1 + (lines[++line] ?? '').length;
      if (line !== marked) hits[line] = (hits[line] ?? 0) + 1;
      marked = line;
    }
  }
  return hits;
}

/** 0-based indexes of the most relevant lines: focus lines first, then lines rich in issue terms. */
export function relevantLines(
  lines: readonly string[],
  focusLines: readonly number[],
  query: TermQuery,
  identifiers: readonly string[],
  max = 6,
): number[] {
  const anchors = focusLines.map((l) => l - 1).filter((i) => i >= 0 && i < lines.length);
  const named = identifierHits(lines, identifiers);
  const cache: TermCache = new Map();
  const scored: { index: number; score: number }[] = [];
  lines.forEach((line, index) => {
    if (line.length > 400) return;
    const score = (named[index] ?? 0) * 3 + countTerms(line, query, cache).size;
    if (score >= 2) scored.push({ index, score });
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  for (const { index } of scored) {
    if (anchors.length >= max) break;
    if (!anchors.some((a) => Math.abs(a - index) <= 3)) anchors.push(index);
  }
  return anchors.sort((a, b) => a - b);
}

/** A line's cost in tokens, asked only for the lines `selectLines` reaches. */
export type LineCost = (index: number) => number;

/** `cost` computed once per line, on first use. */
export function lazyCosts(count: number, compute: LineCost): LineCost {
  const known = new Float64Array(count).fill(-1);
  return (i) => {
    const k = known[i] ?? -1;
    if (k >= 0) return k;
    const c = compute(i);
    known[i] = c;
    return c;
  };
}

/**
 * The lines in the order `selectLines` takes them: by distance to the nearest seed (a line
 * above a seed counts 1.5 per line, below it 1), then by index. A merge of the runs going up and
 * down from each seed, produced only as far as it is read.
 */
function* nearestFirst(count: number, seeds: readonly number[]): Generator<number> {
  const down = seeds.map((s) => Math.max(s, 0)); // next line below (or at) each seed
  const up = seeds.map((s) => Math.min(s - 1, count - 1)); // next line above each seed
  const taken = new Uint8Array(count);
  for (;;) {
    let best = -1;
    let bestDistance = Infinity;
    for (let k = 0; k < seeds.length; k++) {
      const seed = seeds[k]!;
      const d = down[k]!;
      if (d < count && (d - seed < bestDistance || (d - seed === bestDistance && d < best))) {
        best = d;
        bestDistance = d - seed;
      }
      const u = up[k]!;
      const du = (seed - u) * 1.5;
      if (u >= 0 && (du < bestDistance || (du === bestDistance && u < best))) {
        best = u;
        bestDistance = du;
      }
    }
    if (best < 0) return;
    // Every run that is at this line moves past it.
    for (let k = 0; k < seeds.length; k++) {
      if (down[k] === best) down[k] = best + 1;
      if (up[k] === best) up[k] = best - 1;
    }
    if (taken[best]) continue;
    taken[best] = 1;
    yield best;
  }
}

/**
 * A mask of the `count` lines to show within `cap` tokens, growing outwards from the anchors
 * (the top of the file when there are none). `cost(i)` is the cost of line i.
 */
export function selectLines(
  count: number,
  cost: LineCost,
  anchors: readonly number[],
  cap: number,
): boolean[] {
  const seeds = anchors.length > 0 ? anchors : [0];
  const selected = new Array<boolean>(count).fill(false);
  let used = 0;
  for (const i of nearestFirst(count, seeds)) {
    const c = cost(i);
    if (used + c > cap) break; // nearest lines first: stop rather than leave holes
    selected[i] = true;
    used += c;
  }
  return selected;
}

/** Runs of selected lines as 1-based inclusive ranges. */
export function shownRanges(selected: readonly boolean[]): [number, number][] {
  const ranges: [number, number][] = [];
  selected.forEach((on, i) => {
    if (!on) return;
    const last = ranges[ranges.length - 1];
    if (last && last[1] === i) last[1] = i + 1;
    else ranges.push([i + 1, i + 1]);
  });
  return ranges;
}
