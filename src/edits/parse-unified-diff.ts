import { AutofixError } from '../errors.js';

/**
 * Reads unified diffs out of LLM text: inside or outside markdown fences, surrounded by prose,
 * with or without `diff --git`/`index` lines, with bare `@@ @@` headers and wrong counts. Counts
 * are never trusted to end a hunk (a wrong count would silently drop lines); a hunk ends at the
 * next header, fence, or text that is not followed by more hunk lines.
 */

export interface HunkLine {
  kind: ' ' | '-' | '+';
  /** The line without its prefix and without a carriage return. */
  text: string;
  /** Followed by `\ No newline at end of file`. */
  noEol: boolean;
  /** Given without its leading space (a blank context line, or context that lost its prefix). */
  bare: boolean;
  /** A bare blank line at the end of the hunk: maybe context, maybe the gap before prose. */
  optional: boolean;
}

export interface Hunk {
  /** The `@@ … @@` line as written. */
  header: string;
  oldStart?: number;
  oldCount?: number;
  newStart?: number;
  newCount?: number;
  /** Text after the closing `@@` (git puts the enclosing function's first line there). */
  heading: string;
  /** Enclosing scopes named on header lines before this one (`@@ class A` above `@@ def f`). */
  outerHeadings?: string[];
  lines: HunkLine[];
  /** 1-based line of the header in the LLM's text. */
  diffLine: number;
}

export interface FilePatch {
  /** Path as written after `--- ` (undefined for /dev/null or when absent). */
  oldPath?: string;
  /** Path as written after `+++ `. */
  newPath?: string;
  /** Paths from `diff --git a/… b/…`, when present. */
  gitPaths?: [string, string];
  isCreate: boolean;
  isDelete: boolean;
  renameFrom?: string;
  renameTo?: string;
  binary: boolean;
  hunks: Hunk[];
  diffLine: number;
}

/**
 * A hunk header: `@@ -1,3 +1,4 @@ heading` as git writes it, and the shapes models write without
 * numbers: `@@ @@`, `@@ ... @@` (aider's udiff prompt), a bare `@@`, and `@@ <enclosing line>`
 * (OpenAI's apply_patch style, where the text names the class or function the change is in).
 * A hunk line never starts with `@`, so a line starting with `@@` is always a header.
 */
const HUNK_HEADER =
  /^@@+\s*(?:-(\d+)(?:,(\d+))?)?\s*(?:\+(\d+)(?:,(\d+))?)?\s*(?:(?:\.\.\.|…)\s*)?(@@+)?(.*)$/;

type HeaderFields = Pick<Hunk, 'oldStart' | 'oldCount' | 'newStart' | 'newCount' | 'heading'>;

function readHunkHeader(line: string): HeaderFields | undefined {
  const m = HUNK_HEADER.exec(line);
  if (!m) return undefined;
  const num = (s: string | undefined): number | undefined =>
    s === undefined ? undefined : Number(s);
  // Without a closing `@@` the rest is the heading, possibly closed by `@@` itself.
  const rest = m[5] === undefined ? (m[6] ?? '').replace(/@@+\s*$/, '') : (m[6] ?? '');
  return {
    oldStart: num(m[1]),
    oldCount: m[1] === undefined ? undefined : (num(m[2]) ?? 1),
    newStart: num(m[3]),
    newCount: m[3] === undefined ? undefined : (num(m[4]) ?? 1),
    heading: rest.trim(),
  };
}

const FENCE = /^\s*(```|~~~)/;

function unquote(s: string): string {
  if (!s.startsWith('"')) return s;
  const end = s.lastIndexOf('"');
  const body = s.slice(1, end > 0 ? end : undefined);
  return body.replace(/\\(["\\tn])/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c));
}

/** The path in a `--- `/`+++ ` line, without the timestamp GNU diff (or a model) puts after it. */
function headerPath(rest: string): string | undefined {
  const raw = rest.startsWith('"')
    ? unquote(rest)
    : (rest.split('\t')[0] ?? '').replace(/\s+\d{4}-\d\d-\d\d[ T]\d\d:\d\d.*$/, '').trim();
  return raw === '/dev/null' || raw === '' ? undefined : raw;
}

function gitLinePaths(rest: string): [string, string] | undefined {
  const quoted = /^"((?:[^"\\]|\\.)*)"\s+"((?:[^"\\]|\\.)*)"$/.exec(rest);
  if (quoted) return [unquote(`"${quoted[1]}"`), unquote(`"${quoted[2]}"`)];
  const parts = rest.split(' ');
  // Paths may contain spaces: find the split where both halves name the same file.
  for (let i = 1; i < parts.length; i++) {
    const a = parts.slice(0, i).join(' ');
    const b = parts.slice(i).join(' ');
    if (a.replace(/^a\//, '') === b.replace(/^b\//, '')) return [a, b];
  }
  return parts.length === 2 ? [parts[0] ?? '', parts[1] ?? ''] : undefined;
}

/**
 * `--- x` followed by `+++ y`. Inside a hunk the two must name the same file (or /dev/null):
 * counts cannot tell a header from a removed `-- x` and an added `++ y` line, as they may be
 * wrong; the names can.
 */
function isFileHeader(lines: readonly string[], i: number, inHunk = false): boolean {
  const a = lines[i];
  const b = lines[i + 1];
  if (!a?.startsWith('--- ') || !b?.startsWith('+++ ')) return false;
  if (!inHunk) return true;
  const from = headerPath(a.slice(4));
  const to = headerPath(b.slice(4));
  const base = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
  return from === undefined || to === undefined || base(from) === base(to);
}

function isStructural(lines: readonly string[], i: number): boolean {
  const line = lines[i] ?? '';
  return (
    line.startsWith('diff --git ') ||
    line.startsWith('@@') ||
    FENCE.test(line) ||
    isFileHeader(lines, i)
  );
}

/** For each line: is a `+`/`-`/` ` line still to come before the next header or fence? */
function hunkLinesAhead(lines: readonly string[]): boolean[] {
  const ahead: boolean[] = new Array<boolean>(lines.length).fill(false);
  let seen = false;
  for (let i = lines.length - 1; i >= 0; i--) {
    ahead[i] = seen;
    const line = lines[i] ?? '';
    if (isStructural(lines, i)) seen = false;
    else if (/^[-+ ]/.test(line)) seen = true;
  }
  return ahead;
}

function finishHunk(hunk: Hunk): void {
  let end = hunk.lines.length;
  while (end > 0 && hunk.lines[end - 1]?.bare && hunk.lines[end - 1]?.text === '') end--;
  if (end === hunk.lines.length) return;
  const kept = hunk.lines.slice(0, end);
  const oldCount = kept.filter((l) => l.kind !== '+').length;
  const newCount = kept.filter((l) => l.kind !== '-').length;
  if (hunk.oldCount === oldCount && hunk.newCount === newCount) {
    hunk.lines = kept; // the counts say the blank lines after the hunk are not part of it
    return;
  }
  for (let i = end; i < hunk.lines.length; i++) {
    const line = hunk.lines[i];
    if (line) line.optional = true;
  }
}

/** The parser's state between lines: the patches so far and the patch and hunk being read. */
interface DiffReader {
  lines: readonly string[];
  /** `hunkLinesAhead(lines)`. */
  ahead: readonly boolean[];
  patches: FilePatch[];
  patch: FilePatch | undefined;
  hunk: Hunk | undefined;
  /** 1-based lines of hunks read before any file header. */
  orphanHunks: number[];
}

function closeHunk(r: DiffReader): void {
  if (r.hunk) finishHunk(r.hunk);
  r.hunk = undefined;
}

function newPatch(r: DiffReader, diffLine: number): FilePatch {
  closeHunk(r);
  const patch = { isCreate: false, isDelete: false, binary: false, hunks: [], diffLine };
  r.patch = patch;
  r.patches.push(patch);
  return patch;
}

/** `--- x` / `+++ y` at line i: the paths of the patch it starts (or of a `diff --git` one). */
function readFileHeader(r: DiffReader, i: number): void {
  const { patch } = r;
  const started = patch && patch.hunks.length === 0 && patch.oldPath === undefined;
  const p = started && patch && !r.hunk && patch.newPath === undefined ? patch : newPatch(r, i + 1);
  closeHunk(r);
  p.oldPath = headerPath((r.lines[i] ?? '').slice(4));
  p.newPath = headerPath((r.lines[i + 1] ?? '').slice(4));
  if (p.oldPath === undefined) p.isCreate = true;
  if (p.newPath === undefined) p.isDelete = true;
}

/** A hunk header at line i: a new hunk, or the inner scope of an apply_patch one just opened. */
function openHunk(r: DiffReader, i: number, line: string, header: HeaderFields): void {
  const { hunk } = r;
  if (
    hunk &&
    hunk.lines.length === 0 &&
    hunk.oldStart === undefined &&
    header.oldStart === undefined
  ) {
    // apply_patch nests scopes on consecutive lines (`@@ class A` then `@@ def f`): one hunk
    // whose heading is the innermost scope, the outer ones kept as well.
    hunk.outerHeadings = [...(hunk.outerHeadings ?? []), hunk.heading].filter((h) => h !== '');
    hunk.heading = header.heading;
    hunk.header = line;
    return;
  }
  closeHunk(r);
  if (!r.patch) r.orphanHunks.push(i + 1);
  const opened: Hunk = { header: line, ...header, lines: [], diffLine: i + 1 };
  r.hunk = opened;
  (r.patch ?? newPatch(r, i + 1)).hunks.push(opened);
}

/** Line i as a line of the open hunk; false (the hunk closed) when it is not one. */
function readHunkLine(r: DiffReader, hunk: Hunk, i: number, line: string): boolean {
  const first = line[0];
  if (first === ' ' || first === '-' || first === '+') {
    hunk.lines.push({
      kind: first,
      text: line.slice(1),
      noEol: false,
      bare: false,
      optional: false,
    });
    return true;
  }
  if (first === '\\') {
    const prev = hunk.lines[hunk.lines.length - 1];
    if (prev) prev.noEol = true;
    return true;
  }
  if (line === '' || r.ahead[i]) {
    // A blank line that lost its leading space, or context that lost it while more hunk
    // lines follow. Context never changes the file, so reading it as context is safe.
    hunk.lines.push({ kind: ' ', text: line, noEol: false, bare: true, optional: false });
    return true;
  }
  closeHunk(r);
  return false;
}

/** git's extended header lines (modes, renames, binary) between the file's headers. */
function readExtendedHeader(patch: FilePatch, line: string): void {
  if (line.startsWith('new file mode')) patch.isCreate = true;
  else if (line.startsWith('deleted file mode')) patch.isDelete = true;
  else if (line.startsWith('rename from ')) patch.renameFrom = unquote(line.slice(12).trim());
  else if (line.startsWith('rename to ')) patch.renameTo = unquote(line.slice(10).trim());
  else if (line.startsWith('Binary files ') || line.startsWith('GIT binary patch'))
    patch.binary = true;
}

/** Reads line i; returns how many lines after it were read with it (the `+++` of a header). */
function readLine(r: DiffReader, i: number): number {
  const line = r.lines[i] ?? '';
  // ` ```` inside a hunk followed by more hunk lines is a context line of a Markdown file or a
  // doc comment, not the end of the model's fenced block.
  if (FENCE.test(line) && !(r.hunk && line.startsWith(' ') && r.ahead[i])) {
    closeHunk(r);
    return 0;
  }
  if (line.startsWith('diff --git ')) {
    const p = newPatch(r, i + 1);
    const paths = gitLinePaths(line.slice('diff --git '.length));
    if (paths) p.gitPaths = paths;
    return 0;
  }
  if (isFileHeader(r.lines, i, r.hunk !== undefined)) {
    readFileHeader(r, i);
    return 1;
  }
  const header = line.startsWith('@@') ? readHunkHeader(line) : undefined;
  if (header) {
    openHunk(r, i, line, header);
    return 0;
  }
  if (r.hunk && readHunkLine(r, r.hunk, i, line)) return 0;
  if (r.patch) readExtendedHeader(r.patch, line);
  return 0;
}

export function parseUnifiedDiff(text: string): FilePatch[] {
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  // The newline that ends the last line starts no line of its own: read as a blank context line,
  // it would look like trailing context the answer never sent (and hide that it was cut off).
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const r: DiffReader = {
    lines,
    ahead: hunkLinesAhead(lines),
    patches: [],
    patch: undefined,
    hunk: undefined,
    orphanHunks: [],
  };
  for (let i = 0; i < lines.length; i++) i += readLine(r, i);
  closeHunk(r);

  if (r.orphanHunks.length > 0) {
    throw new AutofixError(
      'INVALID_DIFF',
      `The hunk at line ${r.orphanHunks.join(', ')} of your diff has no file header. Put ` +
        '`--- a/<path>` and `+++ b/<path>` lines before the first `@@` of every file.',
      { details: { lines: r.orphanHunks } },
    );
  }
  return r.patches;
}
