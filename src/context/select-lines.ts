/**
 * Chooses which lines of a too-large file to show: the lines the issue points at, then the
 * lines around them, nearest first, until the token cap is reached. Pure.
 */
import { splitWords } from './split-words.js';

/** 0-based indexes of the most relevant lines: focus lines first, then lines rich in issue terms. */
export function relevantLines(
  lines: readonly string[],
  focusLines: readonly number[],
  terms: ReadonlySet<string>,
  identifiers: readonly string[],
  max = 6,
): number[] {
  const anchors = focusLines.map((l) => l - 1).filter((i) => i >= 0 && i < lines.length);
  const scored: { index: number; score: number }[] = [];
  lines.forEach((line, index) => {
    if (line.length > 400) return;
    let score = identifiers.filter((id) => line.includes(id)).length * 3;
    for (const word of new Set(splitWords(line))) if (terms.has(word)) score += 1;
    if (score >= 2) scored.push({ index, score });
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  for (const { index } of scored) {
    if (anchors.length >= max) break;
    if (!anchors.some((a) => Math.abs(a - index) <= 3)) anchors.push(index);
  }
  return anchors.sort((a, b) => a - b);
}

/**
 * A mask of the lines to show within `cap` tokens, growing outwards from the anchors (the top of
 * the file when there are none). `lineTokens[i]` is the cost of line i.
 */
export function selectLines(
  lineTokens: readonly number[],
  anchors: readonly number[],
  cap: number,
): boolean[] {
  const n = lineTokens.length;
  const seeds = anchors.length > 0 ? anchors : [0];
  const distance = Array.from({ length: n }, (_, i) =>
    Math.min(...seeds.map((a) => (i >= a ? i - a : (a - i) * 1.5))),
  );
  const order = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => (distance[a] ?? 0) - (distance[b] ?? 0) || a - b,
  );
  const selected = new Array<boolean>(n).fill(false);
  let used = 0;
  for (const i of order) {
    const cost = lineTokens[i] ?? 0;
    if (used + cost > cap) break; // nearest lines first: stop rather than leave holes
    selected[i] = true;
    used += cost;
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
