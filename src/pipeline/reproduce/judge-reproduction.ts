/**
 * Is this a reproduction? A new test, run on the base commit, must fail — by a test's failure,
 * not by failing to load (a syntax error, a missing module, a compile error), not by running out
 * of time. Pure: it folds what `test-output/` read in the command's output (its runner read even
 * when the output shows no sign of it).
 */
import type { CommandResult } from '../../contracts.js';
import { readTestOutput } from '../../test-output/read-test-output.js';
import {
  CHECKERS,
  LOAD_CAUSES,
  type Finding,
  type LoadCause,
  type LoadError,
  type Runner,
  type TestReport,
} from '../../test-output/test-report.js';
import { commandOutput } from '../code/failure-brief.js';

export type ReproductionVerdict =
  | { kind: 'reproduced'; excerpt: string }
  | {
      kind: 'rejected';
      why: 'passes' | 'load-error' | 'timeout' | 'no-test-failure';
      message: string;
      excerpt: string;
    };

/** Failing to load or compile: the test never ran, so it shows nothing about the bug. */
const LOAD_WORDS: Record<LoadCause, string> = {
  syntax: 'a syntax error',
  'missing-module': 'a missing module',
  'module-system': 'a module-system mismatch',
  compile: 'a compile error',
  import: 'an import error',
  load: 'an error while loading the test file',
  'no-tests': 'no test found',
  'runner-start': 'the test runner failing to start',
};

/** The most telling load error (by `LOAD_CAUSES`), the first of its cause in the output. */
function firstLoadError(
  reports: readonly TestReport[],
): (LoadError & { runner: Runner }) | undefined {
  const all = reports.flatMap((r) => r.errors.map((e) => ({ ...e, runner: r.runner })));
  const rank = (e: LoadError): number => LOAD_CAUSES.indexOf(e.cause);
  return all.sort((a, b) => rank(a) - rank(b) || a.at - b.at)[0];
}

/**
 * A test runner's own report of a failing test: only that counts. A bare `Error:` or the word
 * `failed` does not — npm prints both, and an exception while a test file loads (before any test
 * ran) carries the first without any runner summary.
 */
const showsFailingTest = (r: TestReport): boolean =>
  !CHECKERS.has(r.runner) &&
  ((r.counts.failed ?? 0) > 0 || r.failures.some((f) => f.kind === 'test'));

/** Where the failure shows when no runner said: an assertion or an error line. */
const FAILURE_LINE = /AssertionError|\bexpect\(|\bExpected\b|\bassert|Error:/;

const MAX_EXCERPT = 1500;

/** The line the first failure starts at: the first that says why, else the first named. */
function firstFailureLine(output: string, reports: readonly TestReport[]): number {
  const findings: Finding[] = reports.flatMap((r) => [...r.failures, ...r.errors]);
  const first = (list: Finding[]) => Math.min(...list.map((f) => f.at));
  const told = findings.filter((f) => f.message !== undefined);
  if (told.length > 0) return first(told);
  if (findings.length > 0) return first(findings);
  return output.split('\n').findIndex((l) => FAILURE_LINE.test(l));
}

/** The part of the output around the first failure, bounded. */
export function failureExcerpt(output: string, reports = readTestOutput(output)): string {
  const from = Math.max(0, firstFailureLine(output, reports) - 3);
  const text = output
    .split('\n')
    .slice(from, from + 25)
    .join('\n')
    .trim();
  return text.length <= MAX_EXCERPT ? text : `${text.slice(0, MAX_EXCERPT)}…`;
}

function rejected(
  why: Extract<ReproductionVerdict, { kind: 'rejected' }>['why'],
  message: string,
  excerpt: string,
): ReproductionVerdict {
  return { kind: 'rejected', why, message, excerpt };
}

export function judgeReproduction(result: CommandResult): ReproductionVerdict {
  const output = commandOutput(result);
  const reports = readTestOutput(output, { command: result.command });
  const excerpt = failureExcerpt(output, reports);
  const command = `\`${result.command}\``;
  if (result.timed_out) {
    return rejected('timeout', `${command} ran out of time on the base commit.`, excerpt);
  }
  if (result.exit_code === 0) {
    return rejected(
      'passes',
      `${command} passes on the base commit: the test does not show the bug. Assert the behaviour the issue says is correct, which the current code gets wrong.`,
      excerpt,
    );
  }
  const load = firstLoadError(reports);
  if (load) {
    const what = load.runner === 'tsc' ? 'a TypeScript compile error' : LOAD_WORDS[load.cause];
    const line = output.split('\n')[load.at]?.trim() ?? load.message ?? '';
    return rejected(
      'load-error',
      `${command} fails with ${what}, before any test ran: ${line.slice(0, 300)}`,
      excerpt,
    );
  }
  if (!reports.some(showsFailingTest)) {
    return rejected(
      'no-test-failure',
      `${command} exits with ${result.exit_code ?? 'a signal'} but its test runner reports no failing test (an error while the file loads, before any test ran, does not count).`,
      excerpt,
    );
  }
  return { kind: 'reproduced', excerpt };
}
