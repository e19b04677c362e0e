/**
 * What the code agent and the code fixer see of a file they edit: the whole text when it is
 * small, otherwise the regions around what the change is about, within a token cap. Pure.
 *
 * Regions are the file's own lines, verbatim, in the one fence the prompt already has; a line
 * `⋯ lines A-B not shown ⋯` (the marker the code context uses too) stands for what is left out,
 * so the line after it is line B+1 and every shown line's number can be worked out. Lines carry
 * no `120 | ` prefix: udiff context lines and edit-ops targets quote the file, and a prefix would
 * end up in the quotes (the udiff engine would then have to guess it away, or refuse). A marker
 * starts with `⋯`, which no code line starts with, and never with `@@`, `-`, `+` or a space, so
 * a copied marker cannot pass for a hunk line either; the edit engine refuses it as a line that
 * is not in the file.
 *
 * Only for edit formats that quote the lines they change (udiff, edit-ops): a whole-file format
 * (fenced-files, json-writes) writes the file back in full, and a model shown part of a file
 * would write back only that part. Callers show those formats the whole file (`wholeView`).
 */
import { countTokens } from '../../llm/count-tokens.js';
import { termQuery, type TermQuery } from '../../context/split-words.js';
import { fitCap } from '../../context/build-code-context.js';
import { lazyCosts, relevantLines, selectLines, shownRanges } from '../../context/select-lines.js';

/**
 * A file up to this many tokens (~24 KB of code) is shown whole: with the issue, plan, code
 * context and format instructions the code agent's prompt stays around 10-12k tokens, and the
 * model sees all of a file of ordinary size.
 */
export const WHOLE_FILE_TOKENS = 6_000;
/**
 * A larger file is cut to this many tokens (~12 KB): a handful of regions of 40-80 lines around
 * the anchors. Well below the whole-file limit, so a cut is worth what it hides.
 */
export const REGION_TOKENS = 3_000;
/**
 * All changed files together in one fixer prompt (~48 KB): several files near the whole-file
 * limit are then cut as well, the largest first (the same fair share the code context uses).
 */
export const CHANGED_FILES_TOKENS = 12_000;
/** Below this a region says too little: the budget is overrun rather than cut further. */
export const MIN_REGION_TOKENS = 600;
/** Marker and note lines, reserved out of the cap (about 12 tokens each). */
const MARKER_TOKENS = 12;
/** Term-matched lines added to the fixed anchors. */
const TERM_ANCHORS = 4;

export interface FileFocus {
  /** 1-based inclusive ranges to centre regions on: the plan's line range, lines changed. */
  ranges: readonly (readonly [number, number])[];
  /** 1-based lines pointed at, e.g. by a compiler error. */
  lines: readonly number[];
  /** Words (see `termQuery`) and identifiers of the issue and plan; lines rich in them count. */
  terms: TermQuery;
  identifiers: readonly string[];
}

export interface FileView {
  /** What goes inside the file's fence. */
  text: string;
  whole: boolean;
  /** Lines in the file and the 1-based ranges shown. */
  lines: number;
  shown: [number, number][];
}

export interface ViewLimits {
  /** Shown whole up to this many tokens. */
  whole: number;
  /** Otherwise cut to this many. */
  cap: number;
}

export const NO_FOCUS: FileFocus = {
  ranges: [],
  lines: [],
  terms: termQuery(''),
  identifiers: [],
};

const splitFileLines = (content: string): string[] => content.replace(/\n$/, '').split('\n');

/** The file as it is, for whole-file formats and small files. */
export function wholeView(content: string): FileView {
  const lines = content === '' ? 0 : splitFileLines(content).length;
  return { text: content, whole: true, lines, shown: lines > 0 ? [[1, lines]] : [] };
}

/** Whether a file fits `limit` tokens; a token is at least one byte, so small files skip counting. */
const fits = (content: string, limit: number): boolean =>
  Buffer.byteLength(content) <= limit || countTokens(content) <= limit;

/** 0-based anchors: the ranges and lines given, the file's head, a few term-rich lines. */
function anchorsOf(lines: readonly string[], focus: FileFocus): number[] {
  const anchors = new Set<number>([0]); // imports, a changelog's newest entries, a title
  const inFile = (line: number): boolean => line >= 1 && line <= lines.length;
  for (const [from, to] of focus.ranges)
    for (let line = Math.max(1, from); line <= Math.min(to, lines.length); line++)
      anchors.add(line - 1);
  for (const line of focus.lines) if (inFile(line)) anchors.add(line - 1);
  for (const index of relevantLines(lines, [], focus.terms, focus.identifiers, TERM_ANCHORS))
    anchors.add(index);
  return [...anchors].sort((a, b) => a - b);
}

const kilobytes = (content: string): string =>
  `${Math.max(1, Math.round(Buffer.byteLength(content) / 1024))} KB`;

const rangeText = ([from, to]: readonly [number, number]): string =>
  from === to ? `${from}` : `${from}-${to}`;

/** Regions of `content` around the focus, within `cap` tokens. */
export function regionView(content: string, focus: FileFocus, cap: number): FileView {
  const lines = splitFileLines(content);
  const cost = lazyCosts(lines.length, (i) => countTokens(lines[i] ?? '') + 1);
  const anchors = anchorsOf(lines, focus);
  // One marker before and after each run of anchors at most, plus the note.
  const runs = anchors.filter((a, i) => i === 0 || a - (anchors[i - 1] ?? 0) > 1).length;
  const selected = selectLines(
    lines.length,
    cost,
    anchors,
    Math.max(0, cap - MARKER_TOKENS * (runs + 2)),
  );
  const shown = shownRanges(selected);
  // Even the first anchor's line is over the cap (one huge minified or generated line): a model
  // shown no line can quote none, so it sees the file whole, as it would without a cap. A cap
  // that holds every line shows the file whole too, without a note.
  const first = shown[0];
  if (!first || (first[0] === 1 && first[1] === lines.length)) return wholeView(content);
  const body: string[] = [];
  let next = 1;
  for (const [start, end] of shown) {
    if (start > next) body.push(`⋯ lines ${next}-${start - 1} not shown ⋯`);
    body.push(...lines.slice(start - 1, end));
    next = end + 1;
  }
  if (next <= lines.length) body.push(`⋯ lines ${next}-${lines.length} not shown ⋯`);
  const note =
    `⋯ ${lines.length} lines (${kilobytes(content)}), too large to show whole: only lines ` +
    `${shown.map(rangeText).join(', ')} are shown ⋯`;
  return { text: `${note}\n${body.join('\n')}\n`, whole: false, lines: lines.length, shown };
}

/** The whole file when it fits `limits.whole`, else its regions within `limits.cap`. */
export function viewFile(
  content: string,
  focus: FileFocus,
  limits: ViewLimits = { whole: WHOLE_FILE_TOKENS, cap: REGION_TOKENS },
): FileView {
  if (fits(content, limits.whole)) return wholeView(content);
  return regionView(content, focus, limits.cap);
}

/**
 * Views of several files sharing `budget` tokens: each file is first given what it would get
 * alone (whole, or REGION_TOKENS when larger than WHOLE_FILE_TOKENS); when those do not fit,
 * every file is capped at the same share, so the largest lose the most and small files stay
 * whole. No file is cut below MIN_REGION_TOKENS (many files overrun the budget instead).
 */
export function viewFiles(
  files: readonly { content: string; focus: FileFocus }[],
  budget = CHANGED_FILES_TOKENS,
): FileView[] {
  const sizes = files.map((f) => countTokens(f.content));
  const wants = sizes.map((size) => (size <= WHOLE_FILE_TOKENS ? size : REGION_TOKENS));
  const share = Math.max(
    MIN_REGION_TOKENS,
    fitCap(
      wants,
      budget - MARKER_TOKENS * files.length, // each file's note line
    ),
  );
  return files.map((file, i) => {
    const size = sizes[i] ?? 0;
    if (size <= WHOLE_FILE_TOKENS && size <= share) return wholeView(file.content);
    return regionView(file.content, file.focus, Math.min(wants[i] ?? REGION_TOKENS, share));
  });
}
