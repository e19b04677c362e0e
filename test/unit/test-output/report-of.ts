import { readTestOutput } from '../../../src/test-output/read-test-output.js';
import type { Runner, TestFailure, TestReport } from '../../../src/test-output/test-report.js';

/** The report of `runner` for `lines` (joined), failing the test when there is none. */
export function reportOf(
  runner: Runner,
  lines: readonly string[],
  options: { worktree?: string; command?: string } = {},
): TestReport {
  const report = readTestOutput(lines.join('\n'), options).find((r) => r.runner === runner);
  if (!report) throw new Error(`no ${runner} report`);
  return report;
}

/** A failure as `kind name @ path:line` (or `-` without a place): what most tests assert. */
export const brief = (f: TestFailure): string =>
  `${f.kind} ${f.name} @ ${f.location ? `${f.location.path}:${f.location.line}` : '-'}`;
