/**
 * ESLint's output (pure): stylish (a file's line, then `  12:5  error  message  rule` for each
 * of its problems, then a blank line), unix (`a.ts:12:5: message [Error/rule]`), compact
 * (`a.ts: line 12, col 5, Error - message (rule)`) and the summary `✖ 3 problems (…)`.
 * Problems carry no name that two runs share (they move with every line edited): no `id`.
 */
import type { Worktree } from '../text/repo-relative-path.js';
import { firstCount, inOrder, place } from './output-blocks.js';
import type { RunnerReader, TestFailure } from './test-report.js';

const STYLISH_PROBLEM = /^\s+(\d+):(\d+)\s+(error|warning)\s+(\S.*)$/;
const STYLISH_RULE = /^@?[\w-]+(?:\/[\w-]+)*$/;
/** Unix: the `[Error/rule]` tail is read first, so no regex backtracks over the whole line twice. */
const UNIX_TAIL = / \[(Error|Warning)(?:\/([^\]\s]+))?\]$/;
const UNIX_HEAD = /^(\S.*?):(\d+):(\d+): (.*)$/;
const COMPACT = /^(\S.*?): line (\d+), col (\d+), (Error|Warning) - (.*?)(?: \(([^()]+)\))?$/;
const SUMMARY = /^✖ (\d+) problems?\b/;

interface Flat {
  path: string;
  line: string;
  level: string;
  message: string;
  rule: string | undefined;
}

/** A problem on one line of its own (unix or compact), else null. */
function flatProblem(line: string): Flat | null {
  const tail = line.endsWith(']') ? UNIX_TAIL.exec(line) : null;
  const unix = tail ? UNIX_HEAD.exec(line.slice(0, tail.index)) : null;
  if (unix) {
    return { path: unix[1]!, line: unix[2]!, level: tail![1]!, message: unix[4]!, rule: tail![2] };
  }
  const compact = line.includes(', col ') ? COMPACT.exec(line) : null;
  return (
    compact && {
      path: compact[1]!,
      line: compact[2]!,
      level: compact[4]!,
      message: compact[5]!,
      rule: compact[6],
    }
  );
}

/** A stylish problem line under `file`; the rule is the last column, after two or more spaces. */
function stylishProblem(
  file: string,
  line: string,
  at: number,
  worktree: Worktree,
): TestFailure | null {
  const problem = STYLISH_PROBLEM.exec(line);
  if (!problem) return null;
  const text = problem[4]!;
  const cut = text.lastIndexOf('  ');
  const rule = cut < 0 ? '' : text.slice(cut).trim();
  const ruled = STYLISH_RULE.test(rule);
  const location = place(file, problem[1]!, worktree);
  return {
    at,
    kind: 'problem',
    name: ruled ? rule : '',
    message: ruled ? text.slice(0, cut).trim() : text,
    level: problem[3] === 'error' ? 'failure' : 'warning',
    ...(location ? { location } : {}),
  };
}

export const eslint: RunnerReader = {
  runner: 'eslint',
  signs:
    /^[ \t]+\d+:\d+[ \t]+(?:error|warning)[ \t]+\S|\[(?:Error|Warning)(?:\/[^\]\s]+)?\]$|: line \d+, col \d+, (?:Error|Warning) - |^✖ \d+ problems?\b/,
  command: /\beslint\b/,
  read: (lines, { worktree }) => {
    const failures: TestFailure[] = [];
    // Stylish: the file's own line (unindented), then its problems, one per line, then a blank.
    let file: string | undefined;
    lines.forEach((line, at) => {
      const flat = flatProblem(line);
      if (flat) {
        file = undefined;
        const location = place(flat.path, flat.line, worktree);
        failures.push({
          at,
          kind: 'problem',
          name: flat.rule ?? '',
          message: flat.message,
          level: flat.level === 'Error' ? 'failure' : 'warning',
          ...(location ? { location } : {}),
        });
        return;
      }
      const problem = file === undefined ? null : stylishProblem(file, line, at, worktree);
      if (problem) failures.push(problem);
      else file = line !== '' && !/^\s/.test(line) ? line : undefined;
    });
    const failed = firstCount(lines, SUMMARY);
    return {
      runner: 'eslint',
      failures: inOrder(failures),
      errors: [],
      counts: failed === undefined ? {} : { failed },
    };
  },
};
