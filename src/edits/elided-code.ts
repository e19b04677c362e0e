import { diffArrays } from 'diff';
import { commentText } from './comment-text.js';
import { isElisionMarker } from './is-elision-marker.js';
import { scanCode } from './scan-code.js';
import { similarity } from './similarity.js';

/** One line of a change: unchanged (` `), removed (`-`) or added (`+`). */
export interface ChangeLine {
  kind: ' ' | '-' | '+';
  text: string;
}

/** A placeholder that stands where real code is removed, and the code it would delete. */
export interface ElidedCode {
  /** The placeholder line as written. */
  marker: string;
  /** Index of the placeholder in the lines given. */
  index: number;
  /** Removed lines of real code that the new side of the same change does not keep. */
  lost: string[];
}

/** A removed line the new side may have rewritten: this similar, counted as kept. */
const REWRITTEN = 0.6;

/** A line without a trailing `//` or ` #` comment (outside quotes): a comment added to a line keeps it. */
function withoutTrailingComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote !== undefined) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if ((c === '/' && line[i + 1] === '/') || (c === '#' && /\s/.test(line[i - 1] ?? '')))
      return line.slice(0, i);
  }
  return line;
}

const collapse = (line: string): string =>
  isEmptyBody(line) ? 'pass' : withoutTrailingComment(line).trim().replace(/\s+/g, ' ');

/** Code whose loss matters: not blank, not a comment, not a placeholder. */
const isCode = (line: string): boolean =>
  line.trim() !== '' && commentText(line) === undefined && !isElisionMarker(line);

/** Python's `...` is a statement as empty as `pass`: a body written either way is kept. */
const isEmptyBody = (line: string): boolean => /^(?:\.\.\.|…|pass)$/.test(line.trim());

/** An added line that may be the removed one rewritten: similar, or the same with more after it. */
const rewritten = (added: string, removed: string): boolean =>
  added.startsWith(removed) || similarity(added, removed) >= REWRITTEN;

/** The removed lines no added line of the same gap may be a rewrite of (one to one, in order). */
function unpaired(removed: readonly string[], added: readonly string[]): string[] {
  const free: (string | undefined)[] = [...added];
  const lost: string[] = [];
  let from = 0;
  for (const line of removed) {
    const text = collapse(line);
    let at = -1;
    for (let j = from; j < free.length && at < 0; j++)
      if (free[j] !== undefined && rewritten(free[j] ?? '', text)) at = j;
    if (at < 0) lost.push(line);
    else {
      free[at] = undefined;
      from = at + 1;
    }
  }
  return lost;
}

/**
 * The removed lines of code that `added` does not keep, in order: neither as they were
 * (re-indented is still kept; the longest common sequence of the two) nor rewritten (a similar
 * added line between the same kept lines). A lost `}` is not kept by the `}` of new code
 * elsewhere in the run.
 */
function notKept(removed: readonly string[], added: readonly string[]): string[] {
  const lost: string[] = [];
  let gapRemoved: string[] = [];
  let gapAdded: string[] = [];
  let r = 0;
  for (const part of diffArrays(removed.map(collapse), added.map(collapse))) {
    if (part.added) gapAdded.push(...part.value);
    else if (part.removed) gapRemoved.push(...removed.slice(r, (r += part.value.length)));
    else {
      lost.push(...unpaired(gapRemoved, gapAdded));
      [gapRemoved, gapAdded] = [[], []];
      r += part.value.length;
    }
  }
  return [...lost, ...unpaired(gapRemoved, gapAdded)];
}

/** A line of nothing but closing or opening brackets and punctuation (`}`, `});`, `]`). */
const isBrace = (line: string): boolean => /^[\s{}()[\];,]*[{}()[\]][\s{}()[\];,]*$/.test(line);

/**
 * Whether a change alters the bracket balance of its file: the removed and the added lines open
 * and close brackets differently (`scan-code.ts`). Pass the result to `elidedCode`.
 */
export function changesBalance(lines: readonly ChangeLine[]): boolean {
  const side = (kind: '-' | '+'): string[] =>
    lines.filter((l) => l.kind === kind).map((l) => l.text);
  return scanCode(side('-')).brackets !== scanCode(side('+')).brackets;
}

/** Lines from `at` are unchanged blank lines followed by more changes. */
function gapIsBlank(lines: readonly ChangeLine[], at: number): boolean {
  let i = at;
  while (lines[i]?.kind === ' ' && lines[i]?.text.trim() === '') i++;
  return i > at && i < lines.length && lines[i]?.kind !== ' ';
}

const isMarkerLine = (line: ChangeLine | undefined): boolean =>
  line?.kind === '+' && isElisionMarker(line.text);

/**
 * The removed block after `marker`, slid up to it across the unchanged lines between when a line
 * diff could have aligned it either way (each unchanged line equals the block's last line, so the
 * same texts in the same order read as removed there and kept below). Undefined when it cannot
 * reach the marker.
 */
function slideUp(lines: readonly ChangeLine[], marker: number): ChangeLine[] | undefined {
  let from = marker + 1;
  while (lines[from]?.kind === ' ') from++;
  if (from === marker + 1 || lines[from]?.kind !== '-') return undefined;
  let to = from;
  while (lines[to]?.kind === '-') to++;
  const out = [...lines];
  for (; from > marker + 1; from--, to--) {
    const kept = out[from - 1];
    const last = out[to - 1];
    if (kept === undefined || last === undefined || kept.text !== last.text) return undefined;
    out[from - 1] = { kind: '-', text: kept.text };
    out[to - 1] = { kind: ' ', text: last.text };
  }
  return out;
}

/** The removed block before `marker`, slid down to it the same way (mirror of `slideUp`). */
function slideDown(lines: readonly ChangeLine[], marker: number): ChangeLine[] | undefined {
  const mirror = (ls: readonly ChangeLine[]): ChangeLine[] => [...ls].reverse();
  const slid = slideUp(mirror(lines), lines.length - 1 - marker);
  return slid && mirror(slid);
}

/**
 * The change with removed blocks slid next to the placeholders a line diff separated them from
 * by lines it could as well have called removed (`}` kept above, its twin removed below): the
 * same edit, aligned the way its author wrote it, so the placeholder's run holds what it drops.
 */
function alignToMarkers(lines: readonly ChangeLine[]): readonly ChangeLine[] {
  let out = lines;
  for (let i = 0; i < out.length; i++)
    if (isMarkerLine(out[i])) out = slideUp(out, i) ?? slideDown(out, i) ?? out;
  return out;
}

/**
 * The first placeholder in `lines` (one hunk, or one changed region of a whole file) that stands
 * where real code is deleted: an added line that `isElisionMarker` accepts, in a run of changed
 * lines (between unchanged lines that are not blank) whose removed lines hold code — not blank,
 * not comments — that the run's other added lines do not keep (in order; and when the change
 * leaves its file's brackets unbalanced (`unbalanced`), a lone brace the placeholder stands for).
 * Applying such a change would delete that code and leave the comment. A placeholder-like
 * comment in a run that removes nothing, or only lines it keeps (a block re-indented or moved
 * with its `# ...` comments), is an ordinary comment. Removed lines that a line diff set apart
 * from the placeholder by lines it could as well have called removed are the placeholder's
 * (`alignToMarkers`).
 */
export function elidedCode(
  given: readonly ChangeLine[],
  options: { unbalanced?: boolean } = {},
): ElidedCode | undefined {
  const lines = alignToMarkers(given);
  let start = 0;
  while (start < lines.length) {
    if (lines[start]?.kind === ' ') {
      start++;
      continue;
    }
    // A run of changes goes on across unchanged blank lines: a diff aligns blanks anywhere.
    let end = start;
    while (end < lines.length && (lines[end]?.kind !== ' ' || gapIsBlank(lines, end))) end++;
    const run = lines.slice(start, end);
    const markerAt = run.findIndex(isMarkerLine);
    if (markerAt >= 0) {
      const removed = run.filter((l) => l.kind === '-' && isCode(l.text)).map((l) => l.text);
      const added = run
        .filter((l) => l.kind === '+' && (isCode(l.text) || isEmptyBody(l.text)))
        .map((l) => l.text);
      const lost = notKept(removed, added);
      // A lone brace the new code's braces seem to keep is lost all the same when the change
      // leaves the file's brackets unbalanced: the run's removed brace, or the one after it
      // that a line diff matched to the new code's.
      if (lost.length === 0 && options.unbalanced) {
        const braces = [...removed, lines[end]?.text ?? ''].filter(isBrace);
        lost.push(...braces.slice(0, 1));
      }
      if (lost.length > 0)
        return { marker: run[markerAt]?.text ?? '', index: start + markerAt, lost };
    }
    start = end;
  }
  return undefined;
}
