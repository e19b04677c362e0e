/**
 * node:test's output (pure), in both its reporters. TAP (the default when the output is not a
 * terminal): `tap-stream.ts`, with `# Subtest:`, `location:` and `failureType:` its own signs.
 * Spec (a terminal's default, and Node 23's everywhere): `✖ name (1.2ms)` with the error and
 * its stack indented below, `ℹ fail 1`, and after `✖ failing tests:` each failure again, led by
 * `test at path:10:1` (where it is declared). A failure is placed at its stack's first frame in
 * the repository, else where it is declared; the summary's repeat of a failure is not read twice.
 */
import type { Worktree } from '../text/repo-relative-path.js';
import { loadErrors, NODE_LOAD_SIGNS } from './load-errors.js';
import {
  blockEnd,
  dedent,
  firstOwnFrame,
  indentOf,
  inOrder,
  isFrame,
  marks,
  place,
  readCounts,
} from './output-blocks.js';
import { tapCounts, tapFailures } from './tap-stream.js';
import type { RunnerReader, TestCounts, TestFailure } from './test-report.js';

/** A failing test's line (ESLint's `✖ 3 problems` and the summary's heading are not). */
const CROSS = /^(\s*)✖\s+(?!\d+ problems?\b)(?!failing tests:)(\S.*)$/;
/** How a `✖` line names its failure. */
const CROSS_ID = /^\s*✖\s+(?!\d+ problems?\b)(?!failing tests:)(\S.*)$/;
const DECLARED = /^\s*test at (\S+):(\d+):\d+$/;
const DURATION = /\s*\(\d+(?:\.\d+)?m?s\)$/;
/** The end of an error's own words: its stack, or the error object's properties. */
const DETAIL_END = (l: string): boolean => isFrame(l) || /^\s*\{$/.test(l);

function specFailure(
  lines: readonly string[],
  at: number,
  end: number,
  worktree: Worktree,
): TestFailure {
  const start = CROSS.exec(lines[at]!)!;
  const body = lines.slice(at + 1, end);
  const cut = body.findIndex(DETAIL_END);
  const declared = at > 0 ? DECLARED.exec(lines[at - 1]!) : null;
  const location =
    firstOwnFrame(body, worktree) ??
    (declared ? place(declared[1]!, declared[2]!, worktree) : undefined);
  const name = start[2]!.replace(DURATION, '');
  return {
    at,
    kind: 'test',
    id: start[2]!.trim(),
    name,
    message: dedent(cut < 0 ? body : body.slice(0, cut)) || name,
    level: 'failure',
    ...(location ? { location } : {}),
  };
}

/** The spec reporter's failures, each once (a `✖` line inside another's block is named too). */
function specFailures(lines: readonly string[], worktree: Worktree): TestFailure[] {
  const out: TestFailure[] = [];
  const seen = new Set<string>();
  const read = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    const start = CROSS.exec(lines[i]!);
    if (!start) continue;
    const indent = start[1]!.length;
    const end = blockEnd(lines, i, (l) => l.trim() !== '' && indentOf(l) <= indent);
    const found = specFailure(lines, i, end, worktree);
    const key = JSON.stringify([found.id, found.location, found.message]);
    if (!seen.has(key)) out.push(found);
    seen.add(key);
    read.add(i);
    i = end - 1;
  }
  const inside = marks(lines, CROSS_ID, out).filter((m) => !read.has(m.at));
  return [...out, ...inside];
}

function countsOf(lines: readonly string[]): TestCounts {
  const spec = readCounts(lines, /^ℹ fail (\d+)/, /^ℹ pass (\d+)/);
  return spec.failed === undefined && spec.passed === undefined ? tapCounts(lines) : spec;
}

export const nodeTest: RunnerReader = {
  runner: 'node-test',
  signs:
    /^# Subtest:|^[ \t]*duration_ms:|^[ \t]*location:|failureType:|^ℹ (?:tests|pass|fail)\b|^[ \t]*✖[ \t]+(?!\d+ problems?\b)\S|^[ \t]*test at \S/,
  command: /(?:^|\s)node\s/,
  read: (lines, { worktree }) => ({
    runner: 'node-test',
    failures: inOrder([...tapFailures(lines, worktree), ...specFailures(lines, worktree)]),
    errors: loadErrors(lines, NODE_LOAD_SIGNS),
    counts: countsOf(lines),
  }),
};
