import { reportOf } from './report-of.js';

describe('tsc reader', () => {
  it('reads --pretty false diagnostics as compile errors, with their continuation lines', () => {
    const report = reportOf('tsc', [
      "src/config.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.",
      "src/util.ts(40,1): error TS2345: Argument of type '{ a: string; }' is not assignable to parameter of type 'Options'.",
      "  Object literal may only specify known properties, and 'a' does not exist in type 'Options'.",
      "error TS5023: Unknown compiler option 'strictest'.",
    ]);
    expect(report.errors.map((e) => [e.cause, e.name, e.id, e.location])).toEqual([
      ['compile', 'TS2322', 'src/config.ts TS2322', { path: 'src/config.ts', line: 12 }],
      ['compile', 'TS2345', 'src/util.ts TS2345', { path: 'src/util.ts', line: 40 }],
      ['compile', 'TS5023', undefined, undefined],
    ]);
    expect(report.errors[1]!.message).toBe(
      "Argument of type '{ a: string; }' is not assignable to parameter of type 'Options'.\n" +
        "Object literal may only specify known properties, and 'a' does not exist in type 'Options'.",
    );
    expect(report.failures).toEqual([]);
  });

  it('reads the pretty format, a warning as a problem, and the summary count', () => {
    const report = reportOf(
      'tsc',
      [
        "src/a.ts:12:5 - error TS2322: Type 'string' is not assignable to type 'number'.",
        '',
        "12     const x: number = 'a';",
        '       ~',
        '',
        "/w/src/b.ts:7:1 - warning TS6133: 'y' is declared but its value is never read.",
        '',
        'Found 1 error in src/a.ts:12',
      ],
      { worktree: '/w' },
    );
    expect(report.errors.map((e) => `${e.id} @ ${e.location?.line}`)).toEqual([
      'src/a.ts TS2322 @ 12',
    ]);
    expect(report.failures).toMatchObject([
      {
        kind: 'problem',
        name: 'TS6133',
        level: 'warning',
        location: { path: 'src/b.ts', line: 7 },
      },
    ]);
    expect(report.failures[0]!.id).toBeUndefined();
    expect(report.counts).toEqual({ failed: 1 });
  });
});
