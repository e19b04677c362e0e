import { reportOf } from './report-of.js';

const WT = '/w';
const where = (f: { name: string; level: string; location?: { path: string; line: number } }) =>
  `${f.location?.path}:${f.location?.line} ${f.level} ${f.name}`;

describe('eslint reader', () => {
  it('reads the stylish format: a file line, its problems, the summary', () => {
    const report = reportOf(
      'eslint',
      [
        '',
        '/w/src/server.ts',
        "   3:10  error    'unused' is defined but never used  @typescript-eslint/no-unused-vars",
        '  14:5   warning  Unexpected console statement        no-console',
        '',
        '/w/src/parse.ts',
        '  1:1  error  Parsing error: Unexpected token )',
        '',
        '✖ 3 problems (2 errors, 1 warning)',
        '  1 error and 0 warnings potentially fixable with the `--fix` option.',
      ],
      { worktree: WT },
    );
    expect(report.failures.map(where)).toEqual([
      'src/server.ts:3 failure @typescript-eslint/no-unused-vars',
      'src/server.ts:14 warning no-console',
      'src/parse.ts:1 failure ',
    ]);
    expect(report.failures[0]!.message).toBe("'unused' is defined but never used");
    // Problems move with every line edited: they carry no name to compare runs by.
    expect(report.failures.every((f) => f.kind === 'problem' && f.id === undefined)).toBe(true);
    expect(report.counts).toEqual({ failed: 3 });
  });

  it('reads the unix and compact formats', () => {
    const report = reportOf(
      'eslint',
      [
        "/w/src/a.js:1:7: 'x' is assigned a value but never used. [Error/no-unused-vars]",
        '/w/src/a.js:2:1: Unexpected console statement. [Warning/no-console]',
        '/w/src/c.js: line 4, col 2, Error - Missing semicolon. (semi)',
        '',
        '3 problems',
      ],
      { worktree: WT },
    );
    expect(report.failures.map(where)).toEqual([
      'src/a.js:1 failure no-unused-vars',
      'src/a.js:2 warning no-console',
      'src/c.js:4 failure semi',
    ]);
  });
});
