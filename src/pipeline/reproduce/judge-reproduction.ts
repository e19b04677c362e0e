/**
 * Is this a reproduction? A new test, run on the base commit, must fail — by a test's failure,
 * not by failing to load (a syntax error, a missing module, a compile error), not by running out
 * of time. Pure: it reads the command's result only (the runner already stripped colours).
 */
import type { CommandResult } from '../../contracts.js';
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
const LOAD_ERRORS: [RegExp, string][] = [
  [/\bSyntaxError\b/, 'a syntax error'],
  [
    /Cannot find module|ERR_MODULE_NOT_FOUND|Cannot find package|ERR_UNSUPPORTED_DIR_IMPORT/,
    'a missing module',
  ],
  [
    /Cannot use import statement outside a module|ERR_REQUIRE_ESM|require\(\) of ES Module|exports is not defined in ES module scope/,
    'a module-system mismatch',
  ],
  [/\berror TS\d{4}\b/, 'a TypeScript compile error'],
  [/\b(?:ModuleNotFoundError|ImportError|IndentationError)\b/, 'an import error'],
  [
    /Test suite failed to run|Error: No test files found|\bcollected 0 items\b/,
    'an error while loading the test file',
  ],
  [
    /\bNo tests? (?:found|files found)\b|\bno test files\b|Test Suites: 0 of|No test suite found/i,
    'no test found',
  ],
  // The runner itself could not start (no node_modules, npx fetching a package without network).
  [
    /\bnpm (?:ERR!|error)|\bEAI_AGAIN\b|\bENOTFOUND\b|: command not found|: not found$/m,
    'the test runner failing to start',
  ],
];

/**
 * A test runner's own report of a failing test: only these count. A bare `Error:` or the word
 * `failed` does not — npm prints both, and an exception while a test file loads (before any test
 * ran) carries the first without any runner summary.
 */
const TEST_FAILURE = new RegExp(
  [
    String.raw`^\s*not ok \d+`, // TAP, node:test
    String.raw`^#\s*fail\s+[1-9]`, // node:test, tap summaries
    String.raw`\b[1-9]\d* failing\b`, // mocha
    String.raw`Tests:\s+[1-9]\d* failed`, // jest
    String.raw`Tests\s+[1-9]\d* failed`, // vitest
    String.raw`\b[1-9]\d* failed\b.*\bin \d+(?:\.\d+)?s\b`, // pytest summary
    String.raw`^FAILED\s`, // pytest short summary
    String.raw`\b[1-9]\d* tests? failed\b`, // ava
    String.raw`^\s*[✕✗×]\s`, // jest, vitest test marks
  ].join('|'),
  'm',
);

/** Where the failure shows: an assertion or the runner's failure line. */
const FAILURE_LINE =
  /AssertionError|\bexpect\(|\bExpected\b|\bassert|not ok \d+|✕|✗|\bFAIL(?:ED)?\b|\d+ failing|Error:/;

const MAX_EXCERPT = 1500;

/** The part of the output around the first failure, bounded. */
export function failureExcerpt(output: string): string {
  const lines = output.split('\n');
  const first = lines.findIndex((l) => FAILURE_LINE.test(l));
  const from = Math.max(0, first - 3);
  const text = lines
    .slice(from, from + 25)
    .join('\n')
    .trim();
  return text.length <= MAX_EXCERPT ? text : `${text.slice(0, MAX_EXCERPT)}…`;
}

export function judgeReproduction(result: CommandResult): ReproductionVerdict {
  const output = commandOutput(result);
  const excerpt = failureExcerpt(output);
  if (result.timed_out) {
    return {
      kind: 'rejected',
      why: 'timeout',
      message: `\`${result.command}\` ran out of time on the base commit.`,
      excerpt,
    };
  }
  if (result.exit_code === 0) {
    return {
      kind: 'rejected',
      why: 'passes',
      message: `\`${result.command}\` passes on the base commit: the test does not show the bug. Assert the behaviour the issue says is correct, which the current code gets wrong.`,
      excerpt,
    };
  }
  for (const [pattern, what] of LOAD_ERRORS) {
    const line = output.split('\n').find((l) => pattern.test(l));
    if (line) {
      return {
        kind: 'rejected',
        why: 'load-error',
        message: `\`${result.command}\` fails with ${what}, before any test ran: ${line.trim().slice(0, 300)}`,
        excerpt,
      };
    }
  }
  if (!TEST_FAILURE.test(output)) {
    return {
      kind: 'rejected',
      why: 'no-test-failure',
      message: `\`${result.command}\` exits with ${result.exit_code ?? 'a signal'} but its test runner reports no failing test (an error while the file loads, before any test ran, does not count).`,
      excerpt,
    };
  }
  return { kind: 'reproduced', excerpt };
}
