import { brief, reportOf } from './report-of.js';

const WT = '/home/runner/work/app';

describe('jest reader', () => {
  const output = [
    'FAIL src/sum.test.ts (5.12 s)',
    '  math',
    '    ✓ subtracts (2 ms)',
    '    ✕ adds numbers (4 ms)',
    '',
    '  ● math › adds numbers',
    '',
    '    expect(received).toBe(expected) // Object.is equality',
    '',
    '    Expected: 4',
    '    Received: 5',
    '',
    '      10 |   it("adds numbers", () => {',
    '      11 |     const x = sum(2, 2);',
    '    > 12 |     expect(x).toBe(4);',
    '         |               ^',
    '      13 |   });',
    '',
    `      at Object.<anonymous> (${WT}/src/sum.test.ts:12:15)`,
    '',
    'Test Suites: 1 failed, 1 total',
    'Tests:       1 failed, 1 passed, 2 total',
    'Snapshots:   0 total',
    'Time:        5.3 s',
    'Ran all test suites.',
  ];

  it('reads the failing file, the listing, the ● block and the summary', () => {
    const report = reportOf('jest', output, { worktree: WT });
    expect(report.failures.map(brief)).toEqual([
      'suite src/sum.test.ts (5.12 s) @ -',
      'test adds numbers (4 ms) @ -',
      'test math › adds numbers @ src/sum.test.ts:12',
    ]);
    expect(report.failures.map((f) => f.id)).toEqual([
      'src/sum.test.ts (5.12 s)',
      'adds numbers (4 ms)',
      'math › adds numbers',
    ]);
    expect(report.failures[2]!.message).toBe(
      'expect(received).toBe(expected) // Object.is equality\n\nExpected: 4\nReceived: 5',
    );
    expect(report.counts).toEqual({ failed: 1, passed: 1 });
    expect(report.errors).toEqual([]);
  });

  it("places a failure at the code frame's line in its file when no frame is the repository's", () => {
    const report = reportOf('jest', [
      'FAIL test/api.test.js',
      '  ● api › returns 200',
      '',
      '    expect(received).toBe(expected)',
      '',
      '    > 7 |   expect(res.status).toBe(200);',
      '',
      '      at Object.toBe (node_modules/expect/build/index.js:1:1)',
    ]);
    expect(report.failures.map(brief)).toContain('test api › returns 200 @ test/api.test.js:7');
  });

  it('reads a file that failed to run as a failing suite whose reason is a load error', () => {
    const report = reportOf('jest', [
      'FAIL src/broken.test.ts',
      '  ● Test suite failed to run',
      '',
      "    Cannot find module './missing' from 'src/broken.test.ts'",
      '',
      'Test Suites: 1 failed, 1 total',
      'Tests:       0 total',
    ]);
    expect(report.failures.map(brief)).toEqual([
      'suite src/broken.test.ts @ -',
      'suite Test suite failed to run @ src/broken.test.ts:1',
    ]);
    expect(report.errors.map((e) => [e.cause, e.at])).toEqual([
      ['load', 1],
      ['missing-module', 3],
    ]);
  });
});
