/**
 * A command's output read once (pure): cleaned as a terminal shows it, then read by the reader of
 * each runner it shows (or its command runs) into a `TestReport`. Reports that found nothing
 * (no failure, no error, no count) are left out.
 */
import { terminalLines } from '../text/terminal-text.js';
import { detectRunners } from './detect-runners.js';
import type { ReadOptions, TestReport } from './test-report.js';

export interface ReadTestOutputOptions extends ReadOptions {
  /** The command that printed the output: its runner is read even without signs. */
  command?: string;
}

export function readTestOutput(output: string, options: ReadTestOutputOptions = {}): TestReport[] {
  const lines = terminalLines(output);
  const read = options.worktree === undefined ? {} : { worktree: options.worktree };
  return detectRunners(lines, options.command)
    .map((reader) => reader.read(lines, read))
    .filter(
      (r) =>
        r.failures.length > 0 ||
        r.errors.length > 0 ||
        r.counts.failed !== undefined ||
        r.counts.passed !== undefined,
    );
}
