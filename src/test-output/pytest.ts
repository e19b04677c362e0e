/**
 * pytest's output (pure): the failures' sections (`____ test_add ____`, the code, `E` lines,
 * then `tests/test_calc.py:5: AssertionError` where it raised; with `--tb=short` only
 * `path.py:12: in f` frames, the last of which raised), the warnings summary, `short test summary
 * info` (`FAILED path::test - reason`, `ERROR path - reason`) and `=== 1 failed, 2 passed in
 * 0.12s ===`. A failure is placed where it raised; one that no section placed, at its file.
 * `ERROR` is a collection or fixture error: the file or test failed outside a test's body.
 */
import { repoRelativePath, type Worktree } from '../text/repo-relative-path.js';
import { loadErrors, PYTHON_LOAD_SIGNS } from './load-errors.js';
import { dedent, firstCount, inOrder, MAX_MESSAGE_LINES, place } from './output-blocks.js';
import type { Place, RunnerReader, TestCounts, TestFailure } from './test-report.js';

const SECTION = /^_{3,} (.+?) _{3,}$/;
/** `path.py:12: AssertionError` (where it raised), `path.py:12: in f` and `path.py:12:` (frames). */
const LOCATION = /^\s*(\S.*?\.py):(\d+):(?: (\S.*))?$/;
const SUMMARY = /^(FAILED|ERROR) ([^\s:]+\.py)(?:::(\S+))?(?: - (.*))?$/;
/** How a summary line names its failure. */
const SUMMARY_ID = /^(?:FAILED|ERROR)\s+(\S+)/;
const BANNER_FAILED = /=+ (?:.*?\b)?(\d+) failed\b/;
const QUIET_FAILED = /^(\d+) failed\b.*\bin \d+(?:\.\d+)?s\b/;
const PASSED = /^(?:=+ (?:.*?\b)?)?(\d+) passed\b.*\bin \d+(?:\.\d+)?s\b/;

/** The sections' failures: where each raised, with its `E` lines. */
function sections(lines: readonly string[], worktree: Worktree): TestFailure[] {
  const out: TestFailure[] = [];
  let section: string | undefined;
  let errors: string[] = [];
  let lastFrame: (Place & { at: number }) | undefined;
  let emitted = false;
  const closeSection = (): void => {
    // A short traceback (`--tb=short`) has no final location line: its last frame raised.
    if (!emitted && lastFrame && errors.length > 0) {
      const { at, ...location } = lastFrame;
      const name = section ?? '';
      out.push({ at, kind: 'test', name, location, message: dedent(errors), level: 'failure' });
    }
    errors = [];
    lastFrame = undefined;
    emitted = false;
  };
  lines.forEach((line, at) => {
    const header = SECTION.exec(line);
    if (header || /^={3,}/.test(line)) {
      closeSection();
      section = header?.[1];
    } else if (/^E(?:\s|$)/.test(line)) {
      if (errors.length < MAX_MESSAGE_LINES) errors.push(line.slice(1));
    } else if (!SUMMARY.test(line)) {
      const m = line.includes('.py:') ? LOCATION.exec(line) : null;
      const location = m ? place(m[1]!, m[2]!, worktree) : undefined;
      if (!m || !location) return;
      const rest = m[3];
      if (rest === undefined || /^in \S+$/.test(rest)) {
        lastFrame = { at, ...location };
        return;
      }
      const warning = /Warning\b/.test(rest) && errors.length === 0;
      out.push({
        at,
        kind: warning ? 'problem' : 'test',
        name: section ?? rest.split(':')[0]!,
        location,
        message: errors.length > 0 ? dedent(errors) : rest,
        level: warning ? 'warning' : 'failure',
      });
      emitted = true;
      errors = [];
    }
  });
  closeSection();
  return out;
}

/**
 * The short summary's lines: a failure a section placed gets its name (`id`) from there; one no
 * section placed is placed at its file (the summary names no line).
 */
function summaries(lines: readonly string[], placed: TestFailure[], worktree: Worktree) {
  const titles = new Set(placed.map((f) => f.name));
  const paths = new Set(placed.map((f) => f.location?.path));
  const out: TestFailure[] = [];
  lines.forEach((line, at) => {
    const id = SUMMARY_ID.exec(line)?.[1];
    if (!id) return;
    const s = SUMMARY.exec(line);
    const path = s ? repoRelativePath(s[2]!, worktree) : undefined;
    const title = s?.[3]?.replace(/::/g, '.');
    const kind = line.startsWith('FAILED') ? 'test' : 'suite';
    const base = { at, kind, id, name: title ?? path ?? id, level: 'failure' } as const;
    if (path && !(title ? titles.has(title) : paths.has(path))) {
      const message = s![4] ?? `${s![3] ?? path} failed`;
      out.push({ ...base, location: { path, line: 1 }, message });
      return;
    }
    const same = placed.find((f) => f.kind === 'test' && f.id === undefined && f.name === title);
    if (same) same.id = id;
    else out.push({ ...base, ...(s?.[4] ? { message: s[4] } : {}) });
  });
  return out;
}

function countsOf(lines: readonly string[]): TestCounts {
  const failed = firstCount(lines, BANNER_FAILED) ?? firstCount(lines, QUIET_FAILED);
  const passed = firstCount(lines, PASSED);
  return {
    ...(failed === undefined ? {} : { failed }),
    ...(passed === undefined ? {} : { passed }),
  };
}

export const pytest: RunnerReader = {
  runner: 'pytest',
  signs:
    /^(?:FAILED|ERROR)[ \t]+\S|=+ (?:.*?\b)?\d+ (?:failed|passed)\b|test session starts|^_{3,} .+ _{3,}$|\.py:\d+:|\b(?:ModuleNotFoundError|ImportError|IndentationError)\b|\bcollected \d+ items?\b|^\d+ failed\b.*\bin \d+(?:\.\d+)?s\b/,
  command: /\bpytest\b/,
  read: (lines, { worktree }) => {
    const placed = sections(lines, worktree);
    const listed = summaries(lines, placed, worktree);
    return {
      runner: 'pytest',
      failures: inOrder([...placed, ...listed]),
      errors: loadErrors(lines, PYTHON_LOAD_SIGNS),
      counts: countsOf(lines),
    };
  },
};
