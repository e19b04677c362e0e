import { detectRunners, runnersInCommand } from '../../../src/test-output/detect-runners.js';
import { readTestOutput } from '../../../src/test-output/read-test-output.js';
import { terminalLines } from '../../../src/text/terminal-text.js';

const detect = (lines: string[], command?: string): string[] =>
  detectRunners(terminalLines(lines.join('\n')), command).map((r) => r.runner);

describe('detectRunners', () => {
  it('reads the runner a command names', () => {
    expect(runnersInCommand('npx jest test/a.test.js')).toEqual(['jest']);
    expect(runnersInCommand('node --test test/a.test.js')).toEqual(['node-test']);
    expect(runnersInCommand('python -m pytest tests/test_a.py')).toEqual(['pytest']);
    expect(runnersInCommand('go test ./...')).toEqual(['go']);
    expect(runnersInCommand('npx tsc --noEmit && npx eslint .')).toEqual(['tsc', 'eslint']);
    expect(runnersInCommand('npm test')).toEqual([]);
  });

  it('picks the readers whose signs an output shows, several for a chained command', () => {
    expect(
      detect([
        "src/a.ts(1,1): error TS2322: Type 'x' is not assignable.",
        'FAIL src/a.test.ts',
        '  ● a › b',
        'Tests:       1 failed, 1 total',
      ]),
    ).toEqual(['tsc', 'jest']);
    expect(detect(['npm ERR! code ELIFECYCLE', 'npm ERR! errno 1'])).toEqual([]);
    // A runner the command names is read even when its output shows no sign of it.
    expect(detect(['SyntaxError: missing ) after argument list'], 'node --test a.js')).toEqual([
      'node-test',
    ]);
  });

  it("leaves TAP to node:test's reader when node:test printed it, else to tap's", () => {
    expect(detect(['TAP version 13', 'not ok 1 - a', '# fail 1'])).toEqual(['tap']);
    expect(detect(['# Subtest: a', 'not ok 1 - a', '  ---', '  duration_ms: 1', '  ...'])).toEqual([
      'node-test',
    ]);
  });

  it("leaves a bare FAIL line to Vitest's reader in Vitest output, to Jest's in Jest output", () => {
    expect(detect([' FAIL  src/a.test.ts [ src/a.test.ts ]', ' Test Files  1 failed (1)'])).toEqual(
      ['vitest'],
    );
    expect(detect(['FAIL src/a.test.ts', 'Test Suites: 1 failed, 1 total'])).toEqual(['jest']);
  });

  it("does not take ESLint's `✖ 3 problems` for node:test's `✖ test`", () => {
    expect(
      detect(['/w/a.js', '  1:1  error  x  no-undef', '', '✖ 1 problem (1 error, 0 warnings)']),
    ).toEqual(['eslint']);
  });
});

describe('readTestOutput', () => {
  it('reads coloured output as the terminal shows it, and leaves out readers that found nothing', () => {
    const reports = readTestOutput(
      '\u001b[31mFAIL\u001b[39m src/a.test.ts\n  \u001b[1m● a › b\u001b[22m\n\n    boom\n',
    );
    expect(reports.map((r) => r.runner)).toEqual(['jest']);
    expect(reports[0]!.failures.map((f) => f.name)).toEqual(['src/a.test.ts', 'a › b']);
  });
});
