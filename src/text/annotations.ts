/**
 * Failure locations from command output (pure): the file and line that compiler, linter and test
 * runner errors point at, as GitHub Check Run annotations (`POST /check-runs` `output.annotations`).
 *
 * Recognised: tsc (`a.ts(12,5): error TS2322: …` and the pretty `a.ts:12:5 - error TS2322: …`),
 * ESLint (stylish: a file line, then `  12:5  error  message  rule`; unix
 * `a.ts:12:5: message [Error/rule]`; compact `a.ts: line 12, col 5, Error - message (rule)`), Jest
 * (`● Suite › test` blocks: the first stack frame in the repository, else the `> 12 |` code frame
 * in the `FAIL` file), Vitest (`FAIL a.test.ts > suite > test` with `❯ a.test.ts:12:5`), TAP and
 * node:test (`not ok N - name` with `at:`, stack frames or `location:`), Mocha's failure list
 * (`1) suite test:` with its stack) and pytest (`a.py:12: AssertionError` with its `E` lines, the
 * last `a.py:12: in f` frame of a short traceback, `FAILED a.py::test_x - …` when nothing better).
 *
 * Output is untrusted: paths become repository-relative or are dropped (outside the worktree,
 * `..` escapes, `node_modules`, `.git`, URLs), ANSI escapes and control characters go, very long
 * lines are skipped, and the result is deduplicated and bounded (GitHub takes 50 annotations per
 * request: the first 50 in output order are kept; each message ≤ 1 KB, 64 KB in all).
 */

export type AnnotationLevel = 'failure' | 'warning' | 'notice';

export interface Annotation {
  /** Repository-relative POSIX path. */
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: AnnotationLevel;
  message: string;
  title?: string;
}

export interface AnnotationLimits {
  /** How many annotations are kept (the first ones in output order); default 50. */
  max?: number;
  /** Characters per message; default 1024. */
  maxMessageChars?: number;
  /** Characters of all messages together; default 65536. */
  maxTotalChars?: number;
}

export interface AnnotationOptions extends AnnotationLimits {
  /**
   * The absolute path (or paths, e.g. the sandbox's view and the host's) of the worktree the
   * command ran in: absolute paths under it become relative, every other absolute path is
   * dropped. Relative paths are read as relative to it.
   */
  worktree?: string | readonly string[];
}

export const MAX_ANNOTATIONS = 50;
export const MAX_MESSAGE_CHARS = 1024;
export const MAX_TOTAL_MESSAGE_CHARS = 64 * 1024;
const MAX_TITLE_CHARS = 255;
const MAX_PATH_CHARS = 1024;
/** Longer lines are no location line of any tool (minified code, base64 dumps): skipped. */
const MAX_LINE_CHARS = 4096;
/** Lines read at most (the first ones): parsing stays linear and bounded on any output. */
const MAX_LINES = 200_000;
/** Message lines gathered per finding before the bound (a block's first lines say the most). */
const MAX_MESSAGE_LINES = 20;
/** Lines of one test's block (Jest, TAP, Mocha) read for its location. */
const MAX_BLOCK_LINES = 400;
/** Findings one parser reports at most: far more than are kept, and no quadratic work. */
const MAX_FINDINGS = 1000;

// ---- Cleaning ----

/** CSI (colours, cursor moves), OSC (titles, hyperlinks) and the other two-byte escapes. */
const ANSI =
  // eslint-disable-next-line no-control-regex -- escape sequences are what this removes
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F]/g;
// eslint-disable-next-line no-control-regex -- a path with a control character is refused
const PATH_CONTROL = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex -- messages keep newlines and tabs, nothing else
const MESSAGE_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F]/g;
const INVISIBLE =
  /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]|[\u{E0000}-\u{E007F}]/gu;

/**
 * Output as a terminal would show it, as plain text: escape sequences gone, a line redrawn with
 * `\r` kept in its last version, control and invisible characters removed (tabs and newlines
 * stay). For excerpts of output shown beside the annotations.
 */
export function plainOutput(output: string): string {
  return cleanLines(output, true).join('\n');
}

/** Lines cleaned; a line too long for any location is dropped (or, with `clipLong`, cut). */
function cleanLines(output: string, clipLong = false): string[] {
  const lines = output.replace(ANSI, '').split('\n', MAX_LINES);
  return lines.map((raw) => {
    // A progress line redrawn with `\r` shows its last version.
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const last = line.lastIndexOf('\r');
    const shown = last >= 0 ? line.slice(last + 1) : line;
    if (shown.length > MAX_LINE_CHARS && !clipLong) return '';
    const kept = shown.length > MAX_LINE_CHARS ? `${shown.slice(0, 400)} …` : shown;
    return kept.replace(CONTROL, '').replace(INVISIBLE, '').trimEnd();
  });
}

// ---- Paths ----

/** `.`/`..` resolved; undefined when `..` climbs above the start. */
function normalizeSegments(path: string): string[] | undefined {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else {
      out.push(part);
    }
  }
  return out;
}

function roots(worktree: AnnotationOptions['worktree']): string[][] {
  const list = worktree === undefined ? [] : typeof worktree === 'string' ? [worktree] : worktree;
  return list
    .filter((w) => w.startsWith('/'))
    .map((w) => normalizeSegments(w) ?? [])
    .filter((w) => w.length > 0);
}

/**
 * A path as a tool printed it, made repository-relative; undefined when it is not a file of the
 * repository (outside the worktree, climbing out with `..`, in `node_modules` or `.git`, a URL or
 * a `node:` module, an absolute path without a worktree to strip).
 */
export function repoRelativePath(
  raw: string,
  worktree?: string | readonly string[],
): string | undefined {
  let path = raw.trim().replace(/^(['"])(.*)\1$/, '$2');
  if (/^file:\/\//i.test(path)) {
    try {
      path = decodeURIComponent(path.replace(/^file:\/\/(?:localhost)?/i, ''));
    } catch {
      return undefined;
    }
  }
  path = path.replace(/\\/g, '/');
  if (!path || path.length > MAX_PATH_CHARS || PATH_CONTROL.test(path)) {
    return undefined;
  }
  let segments: string[] | undefined;
  if (path.startsWith('/')) {
    const absolute = normalizeSegments(path);
    if (!absolute) return undefined;
    const root = roots(worktree).find(
      (r) => absolute.length > r.length && r.every((part, i) => absolute[i] === part),
    );
    if (!root) return undefined;
    segments = absolute.slice(root.length);
  } else {
    if (path.startsWith('~')) return undefined;
    segments = normalizeSegments(path);
  }
  if (!segments || segments.length === 0) return undefined;
  if (segments.includes('node_modules') || segments[0] === '.git') return undefined;
  const out = segments.join('/');
  // Windows drives, URLs, `node:internal/…`, `<anonymous>`: nothing in the repository.
  if (out.includes(':') || /[<>]/.test(out)) return undefined;
  return out;
}

// ---- Findings ----

interface Finding {
  /** Line index in the output: findings are kept in output order. */
  at: number;
  /** Repository-relative (parsers resolve it: a stack's first frame that is ours wins). */
  path: string;
  line: number;
  level: AnnotationLevel;
  message: string;
  title?: string;
}

type Worktree = AnnotationOptions['worktree'];
type Parser = (lines: readonly string[], worktree: Worktree) => Finding[];

const indentOf = (line: string): number => /^\s*/.exec(line)![0].length;

/** Lines with a common indentation removed, blank ones at both ends dropped. */
function dedent(lines: readonly string[]): string {
  const kept = lines.slice(0, MAX_MESSAGE_LINES);
  while (kept.length > 0 && kept[0]!.trim() === '') kept.shift();
  while (kept.length > 0 && kept.at(-1)!.trim() === '') kept.pop();
  const indent = Math.min(...kept.filter((l) => l.trim() !== '').map(indentOf));
  return kept.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join('\n');
}

/** A stack frame's location: `at f (path:1:2)`, `at path:1:2`, node:test's `f (file:///path:1:2)`. */
const FRAME_PAREN = /\(([^()]+):(\d+):(\d+)\)$/;
const FRAME_BARE = /^\s*at (?:async )?([^\s()][^()]*):(\d+):(\d+)$/;

interface Place {
  path: string;
  line: number;
}

/** A frame's place when its file is the repository's, else undefined. */
function frameLocation(line: string, worktree: Worktree): Place | undefined {
  const m = FRAME_PAREN.exec(line.trim()) ?? FRAME_BARE.exec(line);
  return m ? place(m[1]!, m[2]!, worktree) : undefined;
}

function place(rawPath: string, line: string | number, worktree: Worktree): Place | undefined {
  const path = repoRelativePath(rawPath, worktree);
  return path ? { path, line: Number(line) } : undefined;
}

const isFrame = (line: string): boolean =>
  /^\s*at\s/.test(line) &&
  (FRAME_PAREN.test(line.trim()) || FRAME_BARE.test(line) || /\)$|\bnative\b/.test(line));

// ---- TypeScript ----

const TSC_PAREN = /^(\s*)(\S.*)\((\d+),(\d+)\): (error|warning|message) (TS\d+): (.*)$/;
const TSC_PRETTY = /^(\s*)(\S.*?):(\d+):(\d+) - (error|warning|message) (TS\d+): (.*)$/;

const typescript: Parser = (lines, worktree) => {
  const out: Finding[] = [];
  lines.forEach((line, i) => {
    const m = TSC_PAREN.exec(line) ?? TSC_PRETTY.exec(line);
    const where = m ? place(m[2]!, m[3]!, worktree) : undefined;
    if (!m || !where) return;
    const indent = m[1]!.length;
    // tsc continues a message on the lines below, indented further ("  Type 'x' is not …").
    const more: string[] = [];
    for (let j = i + 1; j < lines.length && more.length < MAX_MESSAGE_LINES; j++) {
      const next = lines[j]!;
      if (next.trim() === '' || indentOf(next) <= indent) break;
      more.push(next);
    }
    out.push({
      at: i,
      ...where,
      level: m[5] === 'error' ? 'failure' : m[5] === 'warning' ? 'warning' : 'notice',
      message: [m[7]!, ...(more.length > 0 ? [dedent(more)] : [])].join('\n'),
      title: m[6]!,
    });
  });
  return out;
};

// ---- ESLint ----

const STYLISH_PROBLEM = /^\s+(\d+):(\d+)\s+(error|warning)\s+(\S.*)$/;
const STYLISH_RULE = /^@?[\w-]+(?:\/[\w-]+)*$/;
/** Unix: the `[Error/rule]` tail is read first, so no regex backtracks over the whole line twice. */
const ESLINT_UNIX_TAIL = / \[(Error|Warning)(?:\/([^\]\s]+))?\]$/;
const ESLINT_UNIX_HEAD = /^(\S.*?):(\d+):(\d+): (.*)$/;
const ESLINT_COMPACT =
  /^(\S.*?): line (\d+), col (\d+), (Error|Warning) - (.*?)(?: \(([^()]+)\))?$/;

const eslint: Parser = (lines, worktree) => {
  const out: Finding[] = [];
  // Stylish: the file's own line (unindented), then its problems, one per line, then a blank.
  let file: string | undefined;
  lines.forEach((line, i) => {
    const tail = line.endsWith(']') ? ESLINT_UNIX_TAIL.exec(line) : null;
    const unix = tail ? ESLINT_UNIX_HEAD.exec(line.slice(0, tail.index)) : null;
    const compact = unix || !line.includes(', col ') ? null : ESLINT_COMPACT.exec(line);
    const flat = unix
      ? { path: unix[1]!, line: unix[2]!, level: tail![1]!, message: unix[4]!, rule: tail![2] }
      : compact && {
          path: compact[1]!,
          line: compact[2]!,
          level: compact[4]!,
          message: compact[5]!,
          rule: compact[6],
        };
    if (flat) {
      file = undefined;
      const where = place(flat.path, flat.line, worktree);
      if (!where) return;
      out.push({
        at: i,
        ...where,
        level: flat.level === 'Error' ? 'failure' : 'warning',
        message: flat.message,
        ...(flat.rule ? { title: flat.rule } : {}),
      });
      return;
    }
    const problem = file === undefined ? null : STYLISH_PROBLEM.exec(line);
    if (problem) {
      const where = place(file!, problem[1]!, worktree);
      // The rule id is the last column, after two or more spaces (none for a parsing error).
      const text = problem[4]!;
      const cut = text.lastIndexOf('  ');
      const rule = cut < 0 ? '' : text.slice(cut).trim();
      const ruled = STYLISH_RULE.test(rule);
      if (where) {
        out.push({
          at: i,
          ...where,
          level: problem[3] === 'error' ? 'failure' : 'warning',
          message: ruled ? text.slice(0, cut).trim() : text,
          ...(ruled ? { title: rule } : {}),
        });
      }
      return;
    }
    file = line !== '' && !/^\s/.test(line) ? line : undefined;
  });
  return out;
};

// ---- Jest ----

const JEST_FAIL = /^\s*FAIL\s+(\S+)/;
const JEST_BLOCK = /^\s*● (?!Console\b)(\S.*)$/;
const JEST_BLOCK_END =
  /^\s*(?:PASS|FAIL)\s|^(?:Test Suites|Tests|Snapshots|Time):|^Summary of all failing tests|^\s*●/;
const CODE_FRAME = /^\s*(?:(>)\s*)?(\d+) ?\|/;

const jest: Parser = (lines, worktree) => {
  const out: Finding[] = [];
  let suite: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const fail = JEST_FAIL.exec(lines[i]!);
    if (fail && !/\s>\s/.test(lines[i]!)) suite = fail[1];
    const start = JEST_BLOCK.exec(lines[i]!);
    if (!start) continue;
    let end = i + 1;
    while (end < lines.length && end - i < MAX_BLOCK_LINES && !JEST_BLOCK_END.test(lines[end]!)) {
      end++;
    }
    const body = lines.slice(i + 1, end);
    const firstFrame = body.findIndex((l) => CODE_FRAME.test(l) || isFrame(l));
    const message = dedent(firstFrame < 0 ? body : body.slice(0, firstFrame));
    const pointer = body.map((l) => CODE_FRAME.exec(l)).find((m) => m?.[1] === '>');
    // The stack's first frame the repository owns; else the code frame (Jest's view of the
    // failing line) in the suite's file; else the suite's file itself.
    const location =
      body.map((l) => frameLocation(l, worktree)).find((f) => f !== undefined) ??
      (suite && pointer ? place(suite, pointer[2]!, worktree) : undefined) ??
      (suite ? place(suite, 1, worktree) : undefined);
    if (location) {
      out.push({
        at: i,
        ...location,
        level: 'failure',
        message: message || start[1]!,
        title: start[1]!,
      });
    }
    i = end - 1;
  }
  return out;
};

// ---- Vitest ----

const VITEST_FAIL = /^\s*FAIL\s+(\S+)\s+>\s+(\S.*)$/;
const VITEST_LOCATION = /^\s*❯\s+(\S.*?):(\d+):(\d+)$/;

const vitest: Parser = (lines, worktree) => {
  const out: Finding[] = [];
  for (let i = 0; i < lines.length; i++) {
    const start = VITEST_FAIL.exec(lines[i]!);
    if (!start) continue;
    let end = i + 1;
    while (end < lines.length && end - i < MAX_BLOCK_LINES && !/^\s*FAIL\s|⎯/.test(lines[end]!)) {
      end++;
    }
    const body = lines.slice(i + 1, end);
    const firstFrame = body.findIndex((l) => VITEST_LOCATION.test(l) || CODE_FRAME.test(l));
    const location =
      body
        .map((l) => VITEST_LOCATION.exec(l))
        .map((m) => (m ? place(m[1]!, m[2]!, worktree) : undefined))
        .find((p) => p !== undefined) ?? place(start[1]!, 1, worktree);
    const title = start[2]!.replace(/\s+>\s+/g, ' › ');
    if (location) {
      out.push({
        at: i,
        ...location,
        level: 'failure',
        message: dedent(firstFrame < 0 ? body : body.slice(0, firstFrame)) || title,
        title,
      });
    }
    i = end - 1;
  }
  return out;
};

// ---- TAP, node:test, tape ----

const TAP_NOT_OK = /^(\s*)not ok \d+\b(?:\s*-)?\s*(.*)$/;

/** A YAML field of a TAP diagnostic block: inline (quotes dropped) or a `|-` block. */
function yamlValue(body: readonly string[], key: string): string | undefined {
  const at = body.findIndex((l) => l.trimStart().startsWith(`${key}:`));
  if (at < 0) return undefined;
  const line = body[at]!;
  const inline = line.slice(line.indexOf(':') + 1).trim();
  if (!/^[|>][-+]?$/.test(inline)) return inline.replace(/^(['"])(.*)\1$/, '$2');
  const indent = indentOf(line);
  const block: string[] = [];
  for (let j = at + 1; j < body.length && block.length < MAX_MESSAGE_LINES; j++) {
    if (body[j]!.trim() !== '' && indentOf(body[j]!) <= indent) break;
    block.push(body[j]!);
  }
  return dedent(block);
}

const tap: Parser = (lines, worktree) => {
  const out: Finding[] = [];
  for (let i = 0; i < lines.length; i++) {
    const start = TAP_NOT_OK.exec(lines[i]!);
    if (!start) continue;
    const indent = start[1]!.length;
    let end = i + 1;
    while (
      end < lines.length &&
      end - i < MAX_BLOCK_LINES &&
      (lines[end]!.trim() === '' || indentOf(lines[end]!) > indent)
    ) {
      end++;
    }
    const body = lines.slice(i + 1, end);
    const at = i;
    i = end - 1;
    // A TODO is expected to fail; a parent whose subtests failed has their findings instead.
    if (/#\s*TODO\b/i.test(start[2]!) || /failureType:\s*'?subtestsFailed/.test(body.join('\n'))) {
      continue;
    }
    const name = start[2]!.replace(/\s+#\s*SKIP\b.*$/i, '').trim();
    const yaml = body.some((l) => /^\s*---$/.test(l));
    const atField = yaml ? yamlValue(body, 'at') : undefined;
    const locationField = yaml ? yamlValue(body, 'location') : undefined;
    // tape's `at:`, then the stack's first frame that is ours, then node:test's `location:`
    // (where the test is declared, not where it failed).
    const location =
      (atField ? frameLocation(`(${atField.replace(/^.*\(|\)$/g, '')})`, worktree) : undefined) ??
      body.map((l) => frameLocation(l, worktree)).find((f) => f !== undefined) ??
      (locationField ? frameLocation(`(${locationField})`, worktree) : undefined);
    if (!location) continue;
    const expected = yaml ? yamlValue(body, 'expected') : undefined;
    const actual = yaml ? yamlValue(body, 'actual') : undefined;
    const detail = yaml
      ? (yamlValue(body, 'error') ??
        yamlValue(body, 'message') ??
        (expected !== undefined || actual !== undefined
          ? `expected: ${expected ?? '?'}\nactual: ${actual ?? '?'}`
          : ''))
      : dedent(body.filter((l) => !isFrame(l)));
    out.push({
      at,
      ...location,
      level: 'failure',
      message: detail ? `${name}\n${detail}` : name || 'not ok',
      ...(name ? { title: name } : {}),
    });
  }
  return out;
};

// ---- Mocha's failure list ----

const MOCHA_FAILING = /^\s*\d+ failing\b/;
const MOCHA_ITEM = /^\s{0,4}\d+\) (\S.*)$/;

const mocha: Parser = (lines, worktree) => {
  const out: Finding[] = [];
  const from = lines.findIndex((l) => MOCHA_FAILING.test(l));
  if (from < 0) return out;
  for (let i = from + 1; i < lines.length; i++) {
    const start = MOCHA_ITEM.exec(lines[i]!);
    if (!start) continue;
    let end = i + 1;
    while (end < lines.length && end - i < MAX_BLOCK_LINES && !MOCHA_ITEM.test(lines[end]!)) {
      end++;
    }
    const body = lines.slice(i + 1, end);
    // The title runs over lines (suite, nested suites, test) up to the one ending with `:`.
    const titleParts = [start[1]!];
    let k = 0;
    if (!start[1]!.endsWith(':')) {
      while (k < body.length && body[k]!.trim() !== '') {
        titleParts.push(body[k]!.trim());
        k++;
        if (titleParts.at(-1)!.endsWith(':')) break;
      }
    }
    const title = titleParts.join(' › ').replace(/:$/, '');
    const rest = body.slice(k);
    const firstFrame = rest.findIndex(isFrame);
    const location = rest.map((l) => frameLocation(l, worktree)).find((f) => f !== undefined);
    if (location) {
      out.push({
        at: i,
        ...location,
        level: 'failure',
        message: dedent(firstFrame < 0 ? rest : rest.slice(0, firstFrame)) || title,
        title,
      });
    }
    i = end - 1;
  }
  return out;
};

// ---- pytest ----

const PYTEST_SECTION = /^_{3,} (.+?) _{3,}$/;
/** `path.py:12: AssertionError` (where it raised), `path.py:12: in f` and `path.py:12:` (frames). */
const PYTEST_LOCATION = /^\s*(\S.*?\.py):(\d+):(?: (\S.*))?$/;
const PYTEST_SUMMARY = /^(FAILED|ERROR) ([^\s:]+\.py)(?:::(\S+))?(?: - (.*))?$/;

const pytest: Parser = (lines, worktree) => {
  const out: Finding[] = [];
  let section: string | undefined;
  let errors: string[] = [];
  let lastFrame: (Place & { at: number }) | undefined;
  let emitted = false;
  const closeSection = (): void => {
    // A short traceback (`--tb=short`) has no final location line: its last frame raised.
    if (!emitted && lastFrame && errors.length > 0) {
      out.push({
        ...lastFrame,
        level: 'failure',
        message: dedent(errors),
        ...(section ? { title: section } : {}),
      });
    }
    errors = [];
    lastFrame = undefined;
    emitted = false;
  };
  const summaries: { at: number; path: string; test?: string; reason?: string }[] = [];
  lines.forEach((line, i) => {
    const header = PYTEST_SECTION.exec(line);
    if (header || /^={3,}/.test(line)) {
      closeSection();
      section = header?.[1];
      return;
    }
    if (/^E(?:\s|$)/.test(line)) {
      if (errors.length < MAX_MESSAGE_LINES) errors.push(line.slice(1));
      return;
    }
    const summary = PYTEST_SUMMARY.exec(line);
    if (summary) {
      const path = repoRelativePath(summary[2]!, worktree);
      if (path) {
        summaries.push({
          at: i,
          path,
          ...(summary[3] ? { test: summary[3] } : {}),
          ...(summary[4] ? { reason: summary[4] } : {}),
        });
      }
      return;
    }
    const location = PYTEST_LOCATION.exec(line);
    const where = location ? place(location[1]!, location[2]!, worktree) : undefined;
    if (!location || !where) return;
    const rest = location[3];
    if (rest === undefined || /^in \S+$/.test(rest)) {
      lastFrame = { at: i, ...where };
      return;
    }
    const warning = /Warning\b/.test(rest) && errors.length === 0;
    out.push({
      at: i,
      ...where,
      level: warning ? 'warning' : 'failure',
      message: errors.length > 0 ? dedent(errors) : rest,
      title: section ?? rest.split(':')[0]!,
    });
    emitted = true;
    errors = [];
  });
  closeSection();
  // `FAILED path::test - reason` names no line: only for failures nothing above located.
  const titles = new Set(out.map((f) => f.title));
  const paths = new Set(out.map((f) => f.path));
  for (const s of summaries) {
    const title = s.test?.replace(/::/g, '.');
    if (title ? titles.has(title) : paths.has(s.path)) continue;
    out.push({
      at: s.at,
      path: s.path,
      line: 1,
      level: 'failure',
      message: s.reason ?? `${s.test ?? s.path} failed`,
      title: title ?? s.path,
    });
  }
  return out;
};

const PARSERS: readonly Parser[] = [typescript, eslint, jest, vitest, tap, mocha, pytest];

// ---- Bounds ----

/** At most `max` characters, not splitting a surrogate pair, `…` marking a cut. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = Math.max(0, max - 1);
  if (/[\uDC00-\uDFFF]/.test(text[cut] ?? '')) cut--;
  return `${text.slice(0, cut)}…`;
}

/**
 * Deduplicates (same place, level, title and message), keeps the first `max` in order, and bounds
 * messages (each, and all together) and titles. Paths are checked again: anything that is not a
 * plain repository-relative path is dropped.
 */
export function boundAnnotations(
  annotations: readonly Annotation[],
  limits: AnnotationLimits = {},
): Annotation[] {
  const max = limits.max ?? MAX_ANNOTATIONS;
  const perMessage = limits.maxMessageChars ?? MAX_MESSAGE_CHARS;
  let budget = limits.maxTotalChars ?? MAX_TOTAL_MESSAGE_CHARS;
  const seen = new Set<string>();
  const out: Annotation[] = [];
  for (const a of annotations) {
    if (out.length >= max || budget <= 0) break;
    const path = repoRelativePath(a.path);
    if (!path || path !== a.path) continue;
    const start = Math.max(1, Math.floor(a.start_line) || 1);
    const end = Math.max(start, Math.floor(a.end_line) || start);
    const title = a.title
      ? clip(a.title.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim(), MAX_TITLE_CHARS)
      : '';
    const text =
      a.message
        .replace(/\r\n?/g, '\n')
        .replace(/\t/g, '  ')
        .replace(MESSAGE_CONTROL, '')
        .replace(INVISIBLE, '')
        .trim() ||
      title ||
      'failed';
    const message = clip(text, Math.min(perMessage, budget));
    const key = JSON.stringify([path, start, end, a.annotation_level, title, message]);
    if (seen.has(key)) continue;
    seen.add(key);
    budget -= message.length;
    out.push({
      path,
      start_line: start,
      end_line: end,
      annotation_level: a.annotation_level,
      message,
      ...(title ? { title } : {}),
    });
  }
  return out;
}

/** The failure locations in one command's output (stdout and stderr together), bounded. */
export function parseAnnotations(output: string, options: AnnotationOptions = {}): Annotation[] {
  const lines = cleanLines(output);
  const findings = PARSERS.flatMap((parse) =>
    parse(lines, options.worktree)
      .sort((a, b) => a.at - b.at)
      .slice(0, MAX_FINDINGS),
  );
  findings.sort((a, b) => a.at - b.at);
  const annotations: Annotation[] = [];
  for (const f of findings) {
    const line = Number.isSafeInteger(f.line) && f.line > 0 ? f.line : 1;
    annotations.push({
      path: f.path,
      start_line: line,
      end_line: line,
      annotation_level: f.level,
      message: f.message,
      ...(f.title ? { title: f.title } : {}),
    });
  }
  return boundAnnotations(annotations, options);
}
