/**
 * Vitest's output (pure): `× test 12ms` in its listing, then a block per failure opened by
 * ` FAIL  path > suite > test` (the message, `❯ path:12:5` frames, a code frame) and closed by a
 * `⎯` rule, and ` Tests  1 failed | 2 passed (3)`. A failure is placed at its first `❯` frame in
 * the repository, else at its file. A `FAIL path` line with no test is a file failing whole.
 */
import type { Worktree } from '../text/repo-relative-path.js';
import { loadErrors, NODE_LOAD_SIGNS } from './load-errors.js';
import {
  blockEnd,
  CODE_FRAME,
  dedent,
  inOrder,
  marks,
  place,
  readCounts,
} from './output-blocks.js';
import type { RunnerReader, TestFailure } from './test-report.js';

const FAIL_TEST = /^\s*FAIL\s+(\S+)\s+>\s+(\S.*)$/;
/** How a `FAIL` line names its failure: the file, and the test after ` > `. */
const FAIL_ID = /^\s*FAIL\s+(\S.*)$/;
const LOCATION = /^\s*❯\s+(\S.*?):(\d+):(\d+)$/;
const CROSS = /^\s*×\s+(\S.*)$/;
const FAILED = /^\s*Tests\s+(\d+) failed/;
const PASSED = /^\s*Tests\s.*?\b(\d+) passed/;

function block(lines: readonly string[], at: number, end: number, worktree: Worktree): TestFailure {
  const start = FAIL_TEST.exec(lines[at]!)!;
  const body = lines.slice(at + 1, end);
  const firstFrame = body.findIndex((l) => LOCATION.test(l) || CODE_FRAME.test(l));
  const location =
    body
      .map((l) => LOCATION.exec(l))
      .map((m) => (m ? place(m[1]!, m[2]!, worktree) : undefined))
      .find((p) => p !== undefined) ?? place(start[1]!, 1, worktree);
  const name = start[2]!.replace(/\s+>\s+/g, ' › ');
  return {
    at,
    kind: 'test',
    id: FAIL_ID.exec(lines[at]!)![1]!.trim(),
    name,
    message: dedent(firstFrame < 0 ? body : body.slice(0, firstFrame)) || name,
    level: 'failure',
    ...(location ? { location } : {}),
  };
}

function blocks(lines: readonly string[], worktree: Worktree): TestFailure[] {
  const out: TestFailure[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!FAIL_TEST.test(lines[i]!)) continue;
    const end = blockEnd(lines, i, (l) => /^\s*FAIL\s|⎯/.test(l));
    out.push(block(lines, i, end, worktree));
    i = end - 1;
  }
  return out;
}

export const vitest: RunnerReader = {
  runner: 'vitest',
  signs:
    /^[ \t]*FAIL[ \t]+\S+[ \t]+>[ \t]|^[ \t]*×[ \t]|^[ \t]*❯[ \t]|⎯|^[ \t]*Test Files[ \t]|^[ \t]*Tests[ \t]+\d+ failed|No test files found/,
  command: /\bvitest\b/,
  read: (lines, { worktree }) => {
    const read = blocks(lines, worktree);
    const failures = [...read, ...marks(lines, CROSS, read)];
    // `FAIL path` with no test: the file failed as a whole.
    failures.push(...marks(lines, FAIL_ID, read, 'suite'));
    return {
      runner: 'vitest',
      failures: inOrder(failures),
      errors: loadErrors(lines, NODE_LOAD_SIGNS),
      counts: readCounts(lines, FAILED, PASSED),
    };
  },
};
