import { brief, reportOf } from './report-of.js';

const WT = '/w';

describe('node:test reader', () => {
  it('reads its TAP: the stack before location:, the YAML error, the counts', () => {
    const report = reportOf(
      'node-test',
      [
        'TAP version 13',
        '# Subtest: adds numbers',
        'not ok 1 - adds numbers',
        '  ---',
        '  duration_ms: 1.2',
        "  location: '/w/test/sum.test.js:10:1'",
        "  failureType: 'testCodeFailure'",
        '  error: |-',
        '    Expected values to be strictly equal:',
        '    ',
        '    5 !== 4',
        '    ',
        "  code: 'ERR_ASSERTION'",
        '  stack: |-',
        '    TestContext.<anonymous> (file:///w/test/sum.test.js:12:12)',
        '    Test.runInAsyncScope (node:async_hooks:206:9)',
        '  ...',
        '# Subtest: subtracts',
        'ok 2 - subtracts',
        '  ---',
        '  duration_ms: 0.3',
        '  ...',
        '1..2',
        '# tests 2',
        '# suites 0',
        '# pass 1',
        '# fail 1',
      ],
      { worktree: WT },
    );
    expect(report.failures.map(brief)).toEqual(['test adds numbers @ test/sum.test.js:12']);
    expect(report.failures[0]!.message).toBe(
      'adds numbers\nExpected values to be strictly equal:\n\n5 !== 4',
    );
    expect(report.counts).toEqual({ failed: 1, passed: 1 });
  });

  it('falls back to location: (where the test is declared) when no frame is ours', () => {
    const report = reportOf(
      'node-test',
      [
        'not ok 1 - times out',
        '  ---',
        '  duration_ms: 5000',
        "  location: '/w/test/slow.test.js:3:1'",
        "  failureType: 'testTimeoutFailure'",
        "  error: 'test timed out after 5000ms'",
        '  ...',
      ],
      { worktree: WT },
    );
    expect(report.failures.map(brief)).toEqual(['test times out @ test/slow.test.js:3']);
  });

  it('reads the spec reporter, each failure once though its summary repeats it', () => {
    const failure = (indent: string) => [
      `${indent}AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:`,
      `${indent}`,
      `${indent}5 !== 4`,
      `${indent}`,
      `${indent}    at TestContext.<anonymous> (file:///w/test/sum.test.js:12:12)`,
      `${indent}    at Test.runInAsyncScope (node:async_hooks:206:9) {`,
      `${indent}  generatedMessage: true,`,
      `${indent}  code: 'ERR_ASSERTION',`,
      `${indent}}`,
    ];
    const report = reportOf(
      'node-test',
      [
        '▶ math',
        '  ✔ subtracts (0.4ms)',
        '  ✖ adds numbers (1.1ms)',
        ...failure('    '),
        '',
        '✖ math (2.3ms)',
        'ℹ tests 2',
        'ℹ suites 1',
        'ℹ pass 1',
        'ℹ fail 1',
        'ℹ duration_ms 50.2',
        '',
        '✖ failing tests:',
        '',
        'test at test/sum.test.js:10:3',
        '✖ adds numbers (1.1ms)',
        ...failure('  '),
      ],
      { worktree: WT },
    );
    expect(report.failures.map(brief)).toEqual([
      'test adds numbers @ test/sum.test.js:12',
      'test math @ -',
    ]);
    expect(report.failures[0]!.id).toBe('adds numbers (1.1ms)');
    expect(report.failures[0]!.message).toBe(
      'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n5 !== 4',
    );
    expect(report.counts).toEqual({ failed: 1, passed: 1 });
  });
});
