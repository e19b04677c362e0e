/**
 * The signs that a test file never ran (pure): it did not parse, a module it imports is missing,
 * the module systems clash, the runner found no test or could not start. Read by the readers of
 * the runners they concern; a line counts once, for its most telling cause.
 */
import type { LoadCause, LoadError } from './test-report.js';

type Signs = readonly (readonly [RegExp, LoadCause])[];

const SYNTAX = /\bSyntaxError\b/;
const NO_TESTS =
  /\bNo tests? (?:found|files found)\b|\bno test files\b|Test Suites: 0 of|No test suite found/i;
/** The runner itself could not start (no node_modules, npx fetching a package without network). */
const START = /\bnpm (?:ERR!|error)|\bEAI_AGAIN\b|\bENOTFOUND\b|: command not found|: not found$/;

/** Words every sign above contains (lower-cased): a line without one is not read further. */
const HINTS = [
  'error',
  'err_',
  'cannot',
  'require(',
  'exports is',
  'test',
  'npm',
  'eai_again',
  'enotfound',
  'not found',
  'collected 0',
];

const hinted = (line: string): boolean => {
  const lower = line.toLowerCase();
  return HINTS.some((word) => lower.includes(word));
};

/** Node's test runners (Jest, Vitest, Mocha, node:test, tap, AVA). */
export const NODE_LOAD_SIGNS: Signs = [
  [SYNTAX, 'syntax'],
  [
    /Cannot find module|ERR_MODULE_NOT_FOUND|Cannot find package|ERR_UNSUPPORTED_DIR_IMPORT/,
    'missing-module',
  ],
  [
    /Cannot use import statement outside a module|ERR_REQUIRE_ESM|require\(\) of ES Module|exports is not defined in ES module scope/,
    'module-system',
  ],
  [/Test suite failed to run|Error: No test files found/, 'load'],
  [NO_TESTS, 'no-tests'],
  [START, 'runner-start'],
];

/** Python's (pytest). */
export const PYTHON_LOAD_SIGNS: Signs = [
  [SYNTAX, 'syntax'],
  [/\b(?:ModuleNotFoundError|ImportError|IndentationError)\b/, 'import'],
  [/\bcollected 0 items\b/, 'load'],
  [NO_TESTS, 'no-tests'],
  [START, 'runner-start'],
];

/**
 * Several readers of one output look for the same signs (an output can show Jest and tap): each
 * output's lines are read once per list, kept while the lines are.
 */
const read = new WeakMap<readonly string[], Map<Signs, LoadError[]>>();

/** Each line that shows one of `signs`, with the first (most telling) cause it shows. */
export function loadErrors(lines: readonly string[], signs: Signs): LoadError[] {
  const known = read.get(lines)?.get(signs);
  if (known) return known.map((e) => ({ ...e }));
  const out: LoadError[] = [];
  lines.forEach((line, at) => {
    const cause = hinted(line) ? signs.find(([pattern]) => pattern.test(line))?.[1] : undefined;
    if (cause) out.push({ at, cause, name: '', message: line.trim(), level: 'failure' });
  });
  read.set(lines, (read.get(lines) ?? new Map<Signs, LoadError[]>()).set(signs, out));
  return out.map((e) => ({ ...e }));
}
