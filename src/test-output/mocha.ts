/**
 * Mocha's spec reporter (pure): `1) test` in the listing, `  2 passing` / `  1 failing`, then
 * the failure list, an item per failure: `1) suite` and the nested titles on the lines below up
 * to the one ending with `:`, the error (`AssertionError [ERR_ASSERTION]: …`, `+ expected -
 * actual`) and its stack. A failure is placed at its stack's first frame in the repository.
 */
import type { Worktree } from '../text/repo-relative-path.js';
import { loadErrors, NODE_LOAD_SIGNS } from './load-errors.js';
import {
  blockEnd,
  dedent,
  firstOwnFrame,
  inOrder,
  isFrame,
  marks,
  readCounts,
} from './output-blocks.js';
import type { RunnerReader, TestFailure } from './test-report.js';

const FAILING = /^\s*(\d+) failing\b/;
const PASSING = /^\s*(\d+) passing\b/;
const ITEM = /^\s{0,4}\d+\) (\S.*)$/;
/** How a numbered line names its failure (in the listing and in the failure list). */
const ITEM_ID = /^\s*\d+\)\s+(\S.*)$/;

/** The title runs over lines (suite, nested suites, test) up to the one ending with `:`. */
function titleOf(first: string, body: readonly string[]): { title: string; rest: number } {
  const parts = [first];
  let k = 0;
  if (!first.endsWith(':')) {
    while (k < body.length && body[k]!.trim() !== '') {
      parts.push(body[k]!.trim());
      k++;
      if (parts.at(-1)!.endsWith(':')) break;
    }
  }
  return { title: parts.join(' › ').replace(/:$/, ''), rest: k };
}

function item(lines: readonly string[], at: number, end: number, worktree: Worktree): TestFailure {
  const body = lines.slice(at + 1, end);
  const { title, rest: from } = titleOf(ITEM.exec(lines[at]!)![1]!, body);
  const rest = body.slice(from);
  const firstFrame = rest.findIndex(isFrame);
  const location = firstOwnFrame(rest, worktree);
  return {
    at,
    kind: 'test',
    id: ITEM_ID.exec(lines[at]!)![1]!.trim(),
    name: title,
    message: dedent(firstFrame < 0 ? rest : rest.slice(0, firstFrame)) || title,
    level: 'failure',
    ...(location ? { location } : {}),
  };
}

/** The failure list, after `N failing`. */
function failureList(lines: readonly string[], worktree: Worktree): TestFailure[] {
  const out: TestFailure[] = [];
  const from = lines.findIndex((l) => FAILING.test(l));
  if (from < 0) return out;
  for (let i = from + 1; i < lines.length; i++) {
    if (!ITEM.test(lines[i]!)) continue;
    const end = blockEnd(lines, i, (l) => ITEM.test(l));
    out.push(item(lines, i, end, worktree));
    i = end - 1;
  }
  return out;
}

export const mocha: RunnerReader = {
  runner: 'mocha',
  signs: /^[ \t]*\d+ (?:passing|failing|pending)\b|^[ \t]*\d+\)[ \t]+\S/,
  command: /\bmocha\b/,
  read: (lines, { worktree }) => {
    const read = failureList(lines, worktree);
    return {
      runner: 'mocha',
      failures: inOrder([...read, ...marks(lines, ITEM_ID, read)]),
      errors: loadErrors(lines, NODE_LOAD_SIGNS),
      counts: readCounts(lines, FAILING, PASSING),
    };
  },
};
