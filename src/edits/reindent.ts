import { DIFFERENT } from './match-level.js';
import type { MatchLevel } from './match-level.js';
import { indentColumns } from './normalize-line.js';
import type { HunkLine } from './parse-unified-diff.js';

/**
 * Models often quote a region with every line shifted by the same amount (copied out of a nested
 * block, or re-indented as a snippet). The tolerant match still finds the region, so the added
 * lines must be moved by the same amount as the hunk's old side is off from the file — written
 * as the model wrote them, they would be a different program in Python and a wrong file anywhere.
 * The shift is learned from the hunk's own unchanged and removed lines against the file lines
 * they matched, and is applied only when those lines agree on it; otherwise the hunk is refused
 * with the offsets seen. Lines are never re-indented on a guess.
 */

export type Reindent =
  | { kind: 'as-is' }
  | { kind: 'shifted'; lines: HunkLine[]; shift: string; styleOnly?: true }
  | { kind: 'refused'; reason: string };

const TAB_WIDTHS = [4, 8, 2] as const;

const leading = (text: string): string => /^[ \t]*/.exec(text)?.[0] ?? '';

/** `indent` as the file writes indentation: spaces, or tabs (then spaces for the remainder). */
function render(columns: number, style: 'spaces' | 'tabs', tab: number): string {
  return style === 'spaces'
    ? ' '.repeat(columns)
    : '\t'.repeat(Math.floor(columns / tab)) + ' '.repeat(columns % tab);
}

function commonSuffix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

/** A non-zero shift in columns: `4 columns deeper`. */
const describe = (n: number): string =>
  `${Math.abs(n)} column${Math.abs(n) === 1 ? '' : 's'} ${n > 0 ? 'deeper' : 'shallower'}`;

/** The one rendering every tab width agrees on, or undefined when they differ or one failed. */
function agreed(renderings: readonly (HunkLine[] | HunkLine)[]): HunkLine[] | undefined {
  const [first] = renderings;
  if (!Array.isArray(first)) return undefined;
  const same = renderings.every(
    (r) => Array.isArray(r) && r.every((l, i) => l.text === first[i]?.text),
  );
  return same ? first : undefined;
}

/** `"\t"` → `one tab`, `"    "` → `4 spaces`. */
function showIndent(s: string): string {
  if (s === '') return 'nothing';
  const tabs = [...s].filter((c) => c === '\t').length;
  const spaces = s.length - tabs;
  return [
    tabs > 0 ? `${tabs} tab${tabs === 1 ? '' : 's'}` : '',
    spaces > 0 ? `${spaces} space${spaces === 1 ? '' : 's'}` : '',
  ]
    .filter(Boolean)
    .join(' + ');
}

interface Pair {
  /** Indentation in the hunk. */
  hunk: string;
  /** Indentation of the file line it matched. */
  file: string;
}

/** The hunk's old-side lines with text, against the file lines they matched (misquotes too). */
function indentPairs(
  lines: readonly HunkLine[],
  fileLines: readonly string[],
  at: number,
  levels: readonly MatchLevel[],
): Pair[] {
  const pairs: Pair[] = [];
  let i = 0;
  for (const line of lines) {
    if (line.kind === '+') continue;
    const fileText = fileLines[at + i];
    const level = levels[i];
    i++;
    if (line.optional || fileText === undefined || level === undefined || level >= DIFFERENT)
      continue;
    if (line.text.trim() === '' || fileText.trim() === '') continue;
    pairs.push({ hunk: leading(line.text), file: leading(fileText) });
  }
  return pairs;
}

/** The file's indentation style in the matched region, when it has one. */
function styleOf(pairs: readonly Pair[]): 'spaces' | 'tabs' | undefined {
  const indents = pairs.map((p) => p.file).filter((s) => s !== '');
  if (indents.length === 0) return undefined;
  if (indents.every((s) => !s.includes('\t'))) return 'spaces';
  if (indents.every((s) => /^\t+ *$/.test(s))) return 'tabs';
  return undefined;
}

const added = (lines: readonly HunkLine[]): HunkLine[] =>
  lines.filter((l) => l.kind === '+' && l.text.trim() !== '');

/**
 * The hunk's lines with every added line's indentation passed through `fn`; the first added line
 * `fn` cannot move when it fails. Empty lines stay empty; whitespace-only lines move when they can.
 */
function mapAdded(
  lines: readonly HunkLine[],
  fn: (indent: string) => string | undefined,
): HunkLine[] | HunkLine {
  const out: HunkLine[] = [];
  for (const line of lines) {
    if (line.kind !== '+' || line.text === '') {
      out.push(line);
      continue;
    }
    const indent = leading(line.text);
    const moved = fn(indent);
    if (moved === undefined && line.text.trim() === '') out.push(line);
    else if (moved === undefined) return line;
    else out.push({ ...line, text: moved + line.text.slice(indent.length) });
  }
  return out;
}

/**
 * A replaced line is the evidence of which indentation the added lines follow: the first added
 * line after a run of removed lines usually keeps the removed line's indentation. When it has the
 * file's indentation of that line and not the hunk's, the model re-indented what it quoted but
 * wrote the new lines as the file has them; shifting them would be wrong. Returns that line.
 */
function addedInFileTerms(
  lines: readonly HunkLine[],
  fileLines: readonly string[],
  at: number,
): HunkLine | undefined {
  let old = 0;
  let removed: { hunk: string; file: string } | undefined;
  for (const line of lines) {
    if (line.kind === '+') {
      if (removed && line.text.trim() !== '') {
        const indent = leading(line.text);
        if (removed.hunk !== removed.file && indent === removed.file) return line;
        removed = undefined;
      }
      continue;
    }
    const fileText = fileLines[at + old];
    old++;
    if (line.kind === '-' && !removed && line.text.trim() !== '' && fileText !== undefined)
      removed = { hunk: leading(line.text), file: leading(fileText) };
    else if (line.kind === ' ') removed = undefined;
  }
  return undefined;
}

/** 1. The same prefix swapped on every line (spaces for spaces, tabs for tabs): exact. */
function swappedPrefix(lines: readonly HunkLine[], pairs: readonly Pair[]): Reindent | undefined {
  const swaps = pairs.map((p) => {
    const keep = commonSuffix(p.hunk, p.file);
    return [p.hunk.slice(0, p.hunk.length - keep), p.file.slice(0, p.file.length - keep)] as const;
  });
  const [from, to] = swaps[0] ?? ['', ''];
  const oneKind = /^( *|\t*)$/.test(from + to);
  if (!oneKind || !swaps.every(([a, b]) => a === from && b === to)) return undefined;
  const moved = mapAdded(lines, (indent) =>
    indent.startsWith(from) ? to + indent.slice(from.length) : undefined,
  );
  const shift =
    to === ''
      ? `${showIndent(from)} deeper than the file`
      : from === ''
        ? `${showIndent(to)} shallower than the file`
        : `${showIndent(from)} where the file has ${showIndent(to)}`;
  if (!Array.isArray(moved))
    return {
      kind: 'refused',
      reason:
        `its unchanged and removed lines are quoted ${shift}, but the added line ` +
        `"${moved.text.trim()}" is less indented than that, so it cannot be moved by the same amount.`,
    };
  return { kind: 'shifted', lines: moved, shift: `quoted ${shift}` };
}

/**
 * 2. Tabs written for spaces or the reverse: the same widths at one tab width (no shift) or one
 * shift in columns, rewritten in the file's own style. Undefined when neither fits.
 */
function restyled(lines: readonly HunkLine[], pairs: readonly Pair[]): Reindent | undefined {
  const style = styleOf(pairs);
  const fits = TAB_WIDTHS.flatMap((tab) => {
    const shifts = new Set(
      pairs.map((p) => indentColumns(p.file, tab) - indentColumns(p.hunk, tab)),
    );
    return shifts.size === 1 ? [{ tab, shift: [...shifts][0] ?? 0 }] : [];
  });
  const sameWidth = fits.filter((f) => f.shift === 0);
  const shifts = new Set(fits.map((f) => f.shift));
  const eachLineSameWidth = pairs.every((p) =>
    TAB_WIDTHS.some((tab) => indentColumns(p.file, tab) === indentColumns(p.hunk, tab)),
  );
  if (sameWidth.length > 0 || (fits.length === 0 && eachLineSameWidth)) {
    // Only the style drifted. Added lines are put in the file's style when that is unambiguous;
    // otherwise they stay as written (their width is already right).
    if (style === undefined) return { kind: 'as-is' };
    const first = agreed(
      (sameWidth.length > 0 ? sameWidth : TAB_WIDTHS.map((tab) => ({ tab }))).map(({ tab }) =>
        mapAdded(lines, (indent) => render(indentColumns(indent, tab), style, tab)),
      ),
    );
    if (!first) return { kind: 'as-is' };
    const changed = first.some((l, i) => l.text !== lines[i]?.text);
    return changed
      ? {
          kind: 'shifted',
          lines: first,
          shift: `indentation rewritten as ${style}`,
          styleOnly: true,
        }
      : { kind: 'as-is' };
  }
  if (shifts.size !== 1 || style === undefined) return undefined;
  const shift = [...shifts][0] ?? 0;
  const first = agreed(
    fits.map(({ tab }) =>
      mapAdded(lines, (indent) => {
        const columns = indentColumns(indent, tab) + shift;
        return columns < 0 ? undefined : render(columns, style, tab);
      }),
    ),
  );
  if (!first) return undefined;
  return {
    kind: 'shifted',
    lines: first,
    shift: `quoted ${describe(-shift)} than the file, rewritten as ${style}`,
  };
}

/**
 * 3. No single shift: mostly the file's own indentation with a few misquoted lines is the
 * tolerated misquote; anything else is refused with what was seen.
 */
function mostlyAsFile(pairs: readonly Pair[]): Reindent {
  const identical = pairs.filter((p) => p.hunk === p.file).length;
  if (identical * 3 >= pairs.length * 2) return { kind: 'as-is' };
  const seen = [
    ...new Set(pairs.map((p) => `${showIndent(p.hunk)} where the file has ${showIndent(p.file)}`)),
  ];
  return {
    kind: 'refused',
    reason:
      'its lines are not indented like the file and not by one consistent amount ' +
      `(${seen.slice(0, 4).join('; ')}), so the added lines' indentation cannot be derived.`,
  };
}

/**
 * How the hunk's added lines must be indented when its old side sits at file line `at` (0-based)
 * with the given per-line match levels.
 */
function reindentOnce(
  lines: readonly HunkLine[],
  fileLines: readonly string[],
  at: number,
  levels: readonly MatchLevel[],
): Reindent {
  const pairs = indentPairs(lines, fileLines, at, levels);
  if (pairs.every((p) => p.hunk === p.file) || added(lines).length === 0) return { kind: 'as-is' };
  return swappedPrefix(lines, pairs) ?? restyled(lines, pairs) ?? mostlyAsFile(pairs);
}

export function reindentHunk(
  lines: readonly HunkLine[],
  fileLines: readonly string[],
  at: number,
  levels: readonly MatchLevel[],
): Reindent {
  const result = reindentOnce(lines, fileLines, at, levels);
  // Only a real shift needs the check; a style rewrite leaves file-style lines as they are.
  if (result.kind !== 'shifted' || result.styleOnly) return result;
  const fileTerms = addedInFileTerms(lines, fileLines, at);
  if (!fileTerms) return result;
  return {
    kind: 'refused',
    reason:
      `its unchanged and removed lines are ${result.shift}, but the added line ` +
      `"${fileTerms.text.trim()}" is indented like the file's line it replaces, so it is unclear ` +
      'which indentation the added lines follow.',
  };
}
