import { brief, reportOf } from './report-of.js';

describe('vitest reader', () => {
  const output = [
    ' RUN  v1.6.0 /home/u/app',
    '',
    ' ❯ src/sum.test.ts  (2 tests | 1 failed) 5ms',
    '   × math > adds numbers',
    '     → expected 5 to be 4 // Object.is equality',
    '',
    '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯',
    '',
    ' FAIL  src/sum.test.ts > math > adds numbers',
    'AssertionError: expected 5 to be 4 // Object.is equality',
    '',
    '- Expected',
    '+ Received',
    '',
    '- 4',
    '+ 5',
    '',
    ' ❯ src/sum.test.ts:12:15',
    '     10|   it("adds numbers", () => {',
    '     12|     expect(x).toBe(4);',
    '       |               ^',
    '',
    '⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯',
    '',
    ' Test Files  1 failed (1)',
    '      Tests  1 failed | 1 passed (2)',
    '   Start at  10:00:00',
    '   Duration  312ms',
  ];

  it('reads the × listing, the FAIL block at its ❯ frame, and the summary', () => {
    const report = reportOf('vitest', output);
    expect(report.failures.map(brief)).toEqual([
      'test math > adds numbers @ -',
      'test math › adds numbers @ src/sum.test.ts:12',
    ]);
    expect(report.failures[1]!.id).toBe('src/sum.test.ts > math > adds numbers');
    expect(report.failures[1]!.message).toContain('AssertionError: expected 5 to be 4');
    expect(report.failures[1]!.message).toContain('+ 5');
    expect(report.counts).toEqual({ failed: 1, passed: 1 });
  });

  it('reads a file that failed whole (no test named) as a failing suite', () => {
    const report = reportOf('vitest', [
      ' FAIL  src/broken.test.ts [ src/broken.test.ts ]',
      'Error: Failed to load url ./missing (resolved id: ./missing) in /u/src/broken.test.ts. Does the file exist?',
      '',
      ' Test Files  1 failed (1)',
      '      Tests  no tests',
    ]);
    expect(report.failures.map(brief)).toEqual([
      'suite src/broken.test.ts [ src/broken.test.ts ] @ -',
    ]);
    expect(report.counts).toEqual({});
  });
});
