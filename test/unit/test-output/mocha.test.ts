import { brief, reportOf } from './report-of.js';

describe('mocha reader', () => {
  const output = [
    '',
    '  math',
    '    ✔ subtracts',
    '    1) adds numbers',
    '',
    '',
    '  1 passing (6ms)',
    '  1 failing',
    '',
    '  1) math',
    '       adds numbers:',
    '',
    '      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
    '',
    '5 !== 4',
    '',
    '      + expected - actual',
    '',
    '      -5',
    '      +4',
    '      ',
    '      at Context.<anonymous> (test/sum.test.js:12:12)',
    '      at process.processImmediate (node:internal/timers:478:21)',
    '',
  ];

  it('reads the listing, the failure list (titles over lines, error, stack) and the counts', () => {
    const report = reportOf('mocha', output);
    expect(report.failures.map(brief)).toEqual([
      'test adds numbers @ -',
      'test math › adds numbers @ test/sum.test.js:12',
    ]);
    expect(report.failures.map((f) => f.id)).toEqual(['adds numbers', 'math']);
    // Mocha prints the assertion's own lines unindented: the message keeps the block as printed.
    expect(report.failures[1]!.message).toContain(
      'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
    );
    expect(report.failures[1]!.message).toContain('5 !== 4');
    expect(report.failures[1]!.message).not.toContain('at Context');
    expect(report.counts).toEqual({ failed: 1, passed: 1 });
  });

  it('reads a file that throws while loading as a load error, with no failing test', () => {
    const report = reportOf(
      'mocha',
      [
        "Error: Cannot find module '../src/sum'",
        'Require stack:',
        '- /w/test/sum.test.js',
        '    at Module._resolveFilename (node:internal/modules/cjs/loader:1039:15)',
      ],
      { command: 'npx mocha test/sum.test.js' },
    );
    expect(report.failures).toEqual([]);
    expect(report.errors.map((e) => e.cause)).toEqual(['missing-module']);
  });
});
