import { brief, reportOf } from './report-of.js';

describe('go test reader', () => {
  it('reads failing tests and subtests with their log lines, and the failing package', () => {
    const report = reportOf('go', [
      '--- FAIL: TestAdd (0.00s)',
      '    math_test.go:12: Add(2, 2) = 5, want 4',
      '--- FAIL: TestSplit (0.00s)',
      '    --- FAIL: TestSplit/simple (0.00s)',
      '        split_test.go:25: got [a b], want [a b c]',
      'FAIL',
      'FAIL\texample.com/m\t0.003s',
      'FAIL',
    ]);
    expect(report.failures.map(brief)).toEqual([
      'test TestAdd @ -',
      'test TestSplit @ -',
      'test TestSplit/simple @ -',
      'suite example.com/m @ -',
    ]);
    // A log line names the file alone, not its package's folder: it stays in the message.
    expect(report.failures[0]!.message).toBe('math_test.go:12: Add(2, 2) = 5, want 4');
    expect(report.failures[2]!.message).toBe('split_test.go:25: got [a b], want [a b c]');
    expect(report.failures.map((f) => f.id)).toEqual([
      'TestAdd',
      'TestSplit',
      'TestSplit/simple',
      'example.com/m\t0.003s',
    ]);
  });

  it('reads -v output, where the log lines come before the result', () => {
    const report = reportOf('go', [
      '=== RUN   TestAdd',
      '    math_test.go:12: Add(2, 2) = 5, want 4',
      '--- FAIL: TestAdd (0.00s)',
      '=== RUN   TestSub',
      '--- PASS: TestSub (0.00s)',
      'FAIL',
    ]);
    expect(report.failures[0]!.message).toBe('math_test.go:12: Add(2, 2) = 5, want 4');
  });

  it("places a panic at its stack's first frame in the repository", () => {
    const report = reportOf(
      'go',
      [
        '--- FAIL: TestIndex (0.00s)',
        'panic: runtime error: index out of range [5] with length 3 [recovered]',
        '\tpanic: runtime error: index out of range [5] with length 3',
        '',
        'goroutine 7 [running]:',
        'testing.tRunner.func1.2({0x5231a0, 0xc000012345})',
        '\t/usr/local/go/src/testing/testing.go:1545 +0x238',
        'example.com/m.TestIndex(0xc0000a4000?)',
        '\t/w/pkg/index_test.go:9 +0x1d',
        'FAIL\texample.com/m/pkg\t0.004s',
      ],
      { worktree: '/w' },
    );
    expect(report.failures.map(brief)[0]).toBe('test TestIndex @ pkg/index_test.go:9');
    expect(report.failures[0]!.message).toMatch(/^panic: runtime error: index out of range/);
  });

  it("reads the compiler's errors as compile errors at their paths", () => {
    const report = reportOf('go', [
      '# example.com/m [example.com/m.test]',
      './math_test.go:9:2: undefined: Foo',
      'pkg/util.go:3:8: "fmt" imported and not used',
      'FAIL\texample.com/m [build failed]',
      'FAIL',
    ]);
    expect(report.errors.map((e) => [e.cause, e.location, e.message])).toEqual([
      ['compile', { path: 'math_test.go', line: 9 }, 'undefined: Foo'],
      ['compile', { path: 'pkg/util.go', line: 3 }, '"fmt" imported and not used'],
    ]);
    expect(report.failures.map(brief)).toEqual(['suite example.com/m @ -']);
  });
});
