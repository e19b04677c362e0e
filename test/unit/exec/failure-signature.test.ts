import { failureCount, failureNames } from '../../../src/exec/failure-signature.js';

describe('failure names and counts over test-output', () => {
  it("does not name ESLint's summary (fixing some problems is not a new failure): it counts", () => {
    const output = '/r/a.js\n  1:1  error  x  no-undef\n\n✖ 3 problems (3 errors, 0 warnings)\n';
    expect(failureNames(output)).toBeNull();
    expect(failureCount(output)).toBe(3);
  });

  it('reads names from coloured output as the terminal shows it', () => {
    expect(failureNames('\u001b[31mnot ok 1 - adds\u001b[39m\n# fail 1\n')).toEqual(
      new Set(['adds']),
    );
  });

  it('names the failures of every runner in a chained command, and counts the largest summary', () => {
    const output = [
      "src/a.ts(1,1): error TS2322: Type 'x' is not assignable.",
      'Found 1 error in src/a.ts:1',
      '--- FAIL: TestAdd (0.00s)',
      '  ✘ [fail]: math › adds Values are not the same',
      '  2 tests failed',
    ].join('\n');
    expect([...(failureNames(output) ?? [])].sort()).toEqual([
      'TestAdd',
      'math › adds Values are not the same',
      'src/a.ts TS2322',
    ]);
    expect(failureCount(output)).toBe(2);
  });
});
