import { brief, reportOf } from './report-of.js';

describe('ava reader', () => {
  const output = [
    '  ✔ math › subtracts',
    '  ✘ [fail]: math › adds Values are not the same',
    '  ✘ [fail]: math › formats',
    '  ✘ broken.cjs exited with a non-zero exit code: 1',
    '  ─',
    '',
    '  math › adds',
    '',
    '  sum.cjs:8',
    '',
    '   7: test("adds", t => {',
    '   8:   t.is(sum(2, 2), 4);',
    '   9: });',
    '',
    '  Values are not the same:',
    '',
    '  - 5',
    '  + 4',
    '',
    '  › test/sum.cjs:8:5',
    '',
    '',
    '',
    '  math › formats',
    '',
    '  sum.cjs:12',
    '',
    '   12:   t.deepEqual("foo", "bar");',
    '',
    '  Difference (- actual, + expected):',
    '',
    "  - 'foo'",
    "  + 'bar'",
    '',
    '  › format (src/format.cjs:4:8)',
    '  › test/sum.cjs:12:4',
    '',
    '  ─',
    '',
    '  2 tests failed',
  ];

  it('reads the listing and places each failure at its first frame in the repository', () => {
    const report = reportOf('ava', output);
    expect(report.failures.map(brief)).toEqual([
      'test math › adds @ test/sum.cjs:8',
      'test math › formats @ src/format.cjs:4',
      'suite broken.cjs exited with a non-zero exit code: 1 @ -',
    ]);
    expect(report.failures[0]!.id).toBe('math › adds Values are not the same');
    expect(report.failures[0]!.message).toBe('Values are not the same:\n\n- 5\n+ 4');
    expect(report.counts).toEqual({ failed: 2 });
  });
});
