/**
 * TAP producers other than node:test (tape, node-tap, Mocha's TAP reporter): the stream as
 * `tap-stream.ts` reads it. node:test prints TAP too, with signs of its own: its reader wins then.
 */
import { loadErrors, NODE_LOAD_SIGNS } from './load-errors.js';
import { TAP_SIGNS, tapCounts, tapFailures } from './tap-stream.js';
import type { RunnerReader } from './test-report.js';

export const tap: RunnerReader = {
  runner: 'tap',
  signs: TAP_SIGNS,
  command: /\btap\b/,
  yieldsTo: { runner: 'node-test' },
  read: (lines, { worktree }) => ({
    runner: 'tap',
    failures: tapFailures(lines, worktree),
    errors: loadErrors(lines, NODE_LOAD_SIGNS),
    counts: tapCounts(lines),
  }),
};
