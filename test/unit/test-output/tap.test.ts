import { brief, reportOf } from './report-of.js';

describe('tap reader', () => {
  it('reads tape: the at: field, expected/actual, a TODO that is expected to fail, the counts', () => {
    const report = reportOf(
      'tap',
      [
        'TAP version 13',
        '# sum',
        'ok 1 should be equal',
        'not ok 2 should be strictly equal',
        '  ---',
        '    operator: equal',
        '    expected: 4',
        '    actual:   5',
        '    at: Test.<anonymous> (/w/test/sum.js:8:5)',
        '    stack: |-',
        '      Error: should be strictly equal',
        '          at Test.assert [as _assert] (/w/node_modules/tape/lib/test.js:492:48)',
        '  ...',
        'not ok 3 pending feature # TODO',
        '',
        '1..3',
        '# tests 3',
        '# pass  1',
        '# fail  2',
      ],
      { worktree: '/w' },
    );
    expect(report.failures.map(brief)).toEqual([
      'test should be strictly equal @ test/sum.js:8',
      'test pending feature # TODO @ -',
    ]);
    expect(report.failures[0]!.message).toBe('should be strictly equal\nexpected: 4\nactual: 5');
    expect(report.counts).toEqual({ failed: 2, passed: 1 });
  });

  it("reads a TAP block without YAML (Mocha's TAP reporter): message lines and a stack", () => {
    const report = reportOf('tap', [
      '1..1',
      'not ok 1 math adds numbers',
      '  AssertionError [ERR_ASSERTION]: 5 == 4',
      '      at Context.<anonymous> (test/sum.test.js:12:12)',
      '# tests 1',
      '# pass 0',
      '# fail 1',
    ]);
    expect(report.failures.map(brief)).toEqual(['test math adds numbers @ test/sum.test.js:12']);
    expect(report.failures[0]!.message).toBe(
      'math adds numbers\nAssertionError [ERR_ASSERTION]: 5 == 4',
    );
  });

  it('leaves node:test TAP to the node:test reader', () => {
    const out = ['# Subtest: a', 'not ok 1 - a', '  ---', '  duration_ms: 1', '  ...', '# fail 1'];
    expect(() => reportOf('tap', out)).toThrow('no tap report');
    expect(reportOf('node-test', out).counts.failed).toBe(1);
  });
});
