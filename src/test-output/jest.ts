/**
 * Jest's output (pure): `FAIL path` for a failing file, `✕ test (4 ms)` in its listing, then a
 * `● Suite › test` block per failure (the message, a `> 12 |` code frame, the stack), and
 * `Tests: 1 failed, 2 passed, 3 total`. A failure is placed at its stack's first frame in the
 * repository, else at the code frame's line in the `FAIL` file, else at that file.
 * `● Test suite failed to run` is the file failing as a whole (its reason is a load error).
 */
import type { Worktree } from '../text/repo-relative-path.js';
import { loadErrors, NODE_LOAD_SIGNS } from './load-errors.js';
import {
  blockEnd,
  CODE_FRAME,
  dedent,
  firstOwnFrame,
  inOrder,
  isFrame,
  marks,
  place,
  readCounts,
} from './output-blocks.js';
import type { RunnerReader, TestFailure } from './test-report.js';

const FAIL = /^\s*FAIL\s+(\S+)/;
/** A `FAIL` line of Jest's (Vitest's name a test after ` > `), as a failing file's name. */
const FAIL_SUITE = /^\s*FAIL +(?!.*\s>\s)(\S.*)$/;
const BLOCK = /^\s*● (?!Console\b)(\S.*)$/;
/** How a `●` line names its failure. */
const BLOCK_ID = /^\s*●\s+(?!Console\b)(\S.*)$/;
const BLOCK_END =
  /^\s*(?:PASS|FAIL)\s|^(?:Test Suites|Tests|Snapshots|Time):|^Summary of all failing tests|^\s*●/;
const CROSS = /^\s*✕\s+(\S.*)$/;
const FAILED = /^\s*Tests:\s+(\d+) failed/;
const PASSED = /^\s*Tests:.*?\b(\d+) passed/;
/** Lines Jest prints and Vitest does not. */
const OWN =
  /^[ \t]*● |^[ \t]*✕[ \t]|^Test Suites:|^[ \t]*Tests:[ \t]+\d|No tests found|Test suite failed to run/;

/** One `●` block: its message and place. */
function block(
  lines: readonly string[],
  at: number,
  end: number,
  suite: string | undefined,
  worktree: Worktree,
): TestFailure {
  const title = BLOCK.exec(lines[at]!)![1]!;
  const body = lines.slice(at + 1, end);
  const firstFrame = body.findIndex((l) => CODE_FRAME.test(l) || isFrame(l));
  const message = dedent(firstFrame < 0 ? body : body.slice(0, firstFrame));
  const pointer = body.map((l) => CODE_FRAME.exec(l)).find((m) => m?.[1] === '>');
  const location =
    firstOwnFrame(body, worktree) ??
    (suite && pointer ? place(suite, pointer[2]!, worktree) : undefined) ??
    (suite ? place(suite, 1, worktree) : undefined);
  return {
    at,
    kind: title === 'Test suite failed to run' ? 'suite' : 'test',
    id: BLOCK_ID.exec(lines[at]!)![1]!.trim(),
    name: title,
    message: message || title,
    level: 'failure',
    ...(location ? { location } : {}),
  };
}

function blocks(lines: readonly string[], worktree: Worktree): TestFailure[] {
  const out: TestFailure[] = [];
  let suite: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const fail = FAIL.exec(lines[i]!);
    if (fail && !/\s>\s/.test(lines[i]!)) suite = fail[1];
    if (!BLOCK.test(lines[i]!)) continue;
    const end = blockEnd(lines, i, (l) => BLOCK_END.test(l));
    out.push(block(lines, i, end, suite, worktree));
    i = end - 1;
  }
  return out;
}

export const jest: RunnerReader = {
  runner: 'jest',
  signs: new RegExp(`${OWN.source}|^[ \\t]*FAIL +(?!.*[ \\t]>[ \\t])\\S`),
  command: /\bjest\b/,
  yieldsTo: { runner: 'vitest', unless: OWN },
  read: (lines, { worktree }) => {
    const read = blocks(lines, worktree);
    const failures = [
      ...read,
      ...marks(lines, BLOCK_ID, read),
      ...marks(lines, CROSS, read),
      ...marks(lines, FAIL_SUITE, read, 'suite'),
    ];
    return {
      runner: 'jest',
      failures: inOrder(failures),
      errors: loadErrors(lines, NODE_LOAD_SIGNS),
      counts: readCounts(lines, FAILED, PASSED),
    };
  },
};
