/**
 * What a test runner's (or checker's) output says, read once into one shape: the failing tests
 * with their names, the place in the repository the output points at, the errors that kept tests
 * from running, and the runner's own counts. Every consumer (annotations, failure signatures, the
 * reproduction judge) folds over this; none reads runner output itself.
 */
import type { Worktree } from '../text/repo-relative-path.js';

/** The runners read, in the order their reports are listed. */
export const RUNNERS = [
  'tsc',
  'eslint',
  'jest',
  'vitest',
  'node-test',
  'tap',
  'mocha',
  'pytest',
  'ava',
  'go',
] as const;

export type Runner = (typeof RUNNERS)[number];

/** Checkers, not test runners: their failures are problems in the code, not failing tests. */
export const CHECKERS: ReadonlySet<Runner> = new Set(['tsc', 'eslint']);

export type Level = 'failure' | 'warning' | 'notice';

/** A repository-relative POSIX path and a line (1-based). */
export interface Place {
  path: string;
  line: number;
}

export interface Finding {
  /** The output line (0-based) it was read from: findings keep the output's order. */
  at: number;
  /** For people: a test's full name (`math › adds numbers`), a problem's rule or code, or ''. */
  name: string;
  /**
   * How the runner's failure line names it, as printed (durations included): what two runs of the
   * same failure share. Absent when the output names this finding on another line only.
   */
  id?: string;
  /** Where in the repository: the first place the output gives that is a repository file. */
  location?: Place;
  /** The failure's own words (the assertion, the error), bounded. */
  message?: string;
  level: Level;
}

export interface TestFailure extends Finding {
  /** A test; a suite, file or package that failed as a whole; a checker's problem. */
  kind: 'test' | 'suite' | 'problem';
}

/** Why no test ran, most telling first (the order `LOAD_CAUSES` keeps). */
export const LOAD_CAUSES = [
  'syntax',
  'missing-module',
  'module-system',
  'compile',
  'import',
  'load',
  'no-tests',
  'runner-start',
] as const;

export type LoadCause = (typeof LOAD_CAUSES)[number];

/** The code did not compile or a test file did not load: no test in it ran. */
export interface LoadError extends Finding {
  cause: LoadCause;
}

/** The runner's summary line (the first one it printed); for tsc and ESLint, errors/problems. */
export interface TestCounts {
  failed?: number;
  passed?: number;
}

export interface TestReport {
  runner: Runner;
  failures: TestFailure[];
  errors: LoadError[];
  counts: TestCounts;
}

export interface ReadOptions {
  /** The worktree the command ran in: absolute paths under it become repository paths. */
  worktree?: Worktree;
}

/** One runner's reader: its output's signs, its commands, and the reading itself. */
export interface RunnerReader {
  runner: Runner;
  /** Lines only this runner prints (tested on each line of the cleaned output). */
  signs: RegExp;
  /** A command that runs it. */
  command: RegExp;
  /**
   * Another runner whose reader reads this one's lines too and wins when both are seen, unless
   * a line shows `unless` (signs only this runner prints).
   */
  yieldsTo?: { runner: Runner; unless?: RegExp };
  read: (lines: readonly string[], options: ReadOptions) => TestReport;
}
