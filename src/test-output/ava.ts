/**
 * AVA's output (pure): `✘ [fail]: file › title message` in its listing (`✘ file exited with a
 * non-zero exit code` for a file that failed whole), then, between two `─` rules, each failure
 * again (blank lines apart): its title, `file.cjs:29`, a code frame (`  29:   t.is(1, 2);`),
 * the message or difference and `› path:29:4` frames; then `1 test failed`. A failure is placed
 * at its first `›` frame in the repository (the `file:line` line names the file alone).
 */
import type { Worktree } from '../text/repo-relative-path.js';
import { loadErrors, NODE_LOAD_SIGNS } from './load-errors.js';
import { dedent, inOrder, marks, place, readCounts } from './output-blocks.js';
import type { Place, RunnerReader, TestFailure } from './test-report.js';

/** A listing line: `✘ [fail]: title message`, `✘ [unexpected pass]: …`, `✘ file exited …`. */
const CROSS = /^\s*✘ (?:\[[^\]]+\]: )?(\S.*)$/;
const RULE = /^\s*─+$/;
const FRAME = /^\s*›\s+(?:.*\()?([^()\s]+):(\d+):\d+\)?$/;
/** Not the message: the `file:line` line, a code frame's line, a frame. */
const NOT_MESSAGE = /^\s*\S+:\d+$|^\s*\d+:(?:\s|$)|^\s*›\s/;

interface Detail {
  at: number;
  title: string;
  message: string;
  location: Place | undefined;
}

function detail(lines: readonly string[], at: number, end: number, worktree: Worktree): Detail {
  const body = lines.slice(at + 1, end);
  const frame = body
    .map((l) => FRAME.exec(l))
    .map((m) => (m ? place(m[1]!, m[2]!, worktree) : undefined))
    .find((p) => p !== undefined);
  const message = dedent(body.filter((l) => !NOT_MESSAGE.test(l)));
  return { at, title: lines[at]!.trim(), message, location: frame };
}

/** The failures between the two rules: a title after the rule or after two blank lines. */
function details(lines: readonly string[], worktree: Worktree): Detail[] {
  const from = lines.findIndex((l) => RULE.test(l));
  if (from < 0) return [];
  const to = lines.findIndex((l, i) => i > from && RULE.test(l));
  const end = to < 0 ? lines.length : to;
  const starts: number[] = [];
  let blanks = 2;
  for (let i = from + 1; i < end; i++) {
    if (lines[i]!.trim() === '') blanks++;
    else if (blanks >= 2) starts.push(i);
    if (lines[i]!.trim() !== '') blanks = 0;
  }
  return starts.map((at, k) => detail(lines, at, starts[k + 1] ?? end, worktree));
}

function failures(lines: readonly string[], worktree: Worktree): TestFailure[] {
  const listed = marks(lines, CROSS, []).map((f) =>
    / exited with a non-zero exit code\b/.test(f.id!) ? { ...f, kind: 'suite' as const } : f,
  );
  const extra: TestFailure[] = [];
  for (const { at, title, message, location } of details(lines, worktree)) {
    const more = { name: title, message: message || title, ...(location ? { location } : {}) };
    const same = listed.find(
      (f) => f.message === undefined && (f.id === title || f.id!.startsWith(`${title} `)),
    );
    if (same) Object.assign(same, more);
    else extra.push({ at, kind: 'test', level: 'failure', ...more });
  }
  return inOrder([...listed, ...extra]);
}

export const ava: RunnerReader = {
  runner: 'ava',
  signs: /^[ \t]*✘ |^[ \t]*\d+ tests? (?:failed|passed)\b/,
  command: /\bava\b/,
  read: (lines, { worktree }) => ({
    runner: 'ava',
    failures: failures(lines, worktree),
    errors: loadErrors(lines, NODE_LOAD_SIGNS),
    counts: readCounts(lines, /^\s*(\d+) tests? failed\b/, /^\s*(\d+) tests? passed\b/),
  }),
};
