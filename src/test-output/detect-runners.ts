/**
 * Which runners' readers an output needs (pure): those whose signs it shows, and those its command
 * runs. Where two readers read the same lines (node:test's TAP and other TAP; the `FAIL` lines
 * of Jest and Vitest), the one whose own signs show wins.
 */
import { ava } from './ava.js';
import { eslint } from './eslint.js';
import { goTest } from './go-test.js';
import { jest } from './jest.js';
import { mocha } from './mocha.js';
import { nodeTest } from './node-test.js';
import { pytest } from './pytest.js';
import { tap } from './tap.js';
import { tsc } from './tsc.js';
import { RUNNERS, type Runner, type RunnerReader } from './test-report.js';
import { vitest } from './vitest.js';

const READERS: Record<Runner, RunnerReader> = {
  tsc,
  eslint,
  jest,
  vitest,
  'node-test': nodeTest,
  tap,
  mocha,
  pytest,
  ava,
  go: goTest,
};

/** The runners a command names (`npx jest a.test.js`, `python -m pytest`, `go test ./...`). */
export function runnersInCommand(command: string): Runner[] {
  return RUNNERS.filter((r) => READERS[r].command.test(command));
}

const shows = (lines: readonly string[], signs: RegExp): boolean =>
  lines.some((line) => signs.test(line));

/** The readers for an output (its cleaned lines), in the order of `RUNNERS`. */
export function detectRunners(lines: readonly string[], command?: string): RunnerReader[] {
  const named = new Set(command === undefined ? [] : runnersInCommand(command));
  const found = RUNNERS.filter((r) => named.has(r) || shows(lines, READERS[r].signs));
  return found
    .filter((r) => {
      const yields = READERS[r].yieldsTo;
      if (!yields || !found.includes(yields.runner)) return true;
      return yields.unless !== undefined && shows(lines, yields.unless);
    })
    .map((r) => READERS[r]);
}
