import {
  boundAnnotations,
  MAX_ANNOTATIONS,
  parseAnnotations,
  repoRelativePath,
  type Annotation,
} from '../../../src/verdict/annotations.js';

const WT = '/tmp/autofix/jobs/run-1/wt';
const parse = (output: string): Annotation[] => parseAnnotations(output, { worktree: WT });
/** Path, line, level and title: the part of an annotation most tests assert. */
const where = (a: Annotation): string =>
  `${a.path}:${a.start_line} ${a.annotation_level}${a.title ? ` ${a.title}` : ''}`;

describe('repoRelativePath', () => {
  it.each([
    ['src/a.ts', 'src/a.ts'],
    ['./src/a.ts', 'src/a.ts'],
    ['src/../lib/a.ts', 'lib/a.ts'],
    [`${WT}/src/a.ts`, 'src/a.ts'],
    [`${WT}//src/./a.ts`, 'src/a.ts'],
    [`file://${WT}/test/a.test.mjs`, 'test/a.test.mjs'],
    [`'${WT}/src/a.ts'`, 'src/a.ts'],
    ['src\\win\\a.ts', 'src/win/a.ts'],
  ])('%s → %s', (raw, expected) => {
    expect(repoRelativePath(raw, WT)).toBe(expected);
  });

  it.each([
    ['../outside.ts'],
    ['src/../../outside.ts'],
    ['/etc/passwd'],
    [`${WT}/../other/a.ts`],
    [`${WT}-evil/a.ts`],
    [WT],
    ['node_modules/jest-circus/build/utils.js'],
    [`${WT}/node_modules/pkg/index.js`],
    ['.git/config'],
    ['node:internal/process/task_queues'],
    ['<anonymous>'],
    ['C:\\Users\\me\\a.ts'],
    ['https://example.com/a.js'],
    ['~/a.ts'],
    ['src/a\u0000.ts'],
    [''],
  ])('drops %j', (raw) => {
    expect(repoRelativePath(raw, WT)).toBeUndefined();
  });

  it('drops every absolute path when no worktree is given, and accepts several worktrees', () => {
    expect(repoRelativePath(`${WT}/src/a.ts`)).toBeUndefined();
    expect(repoRelativePath('/work/src/a.ts', ['/sandbox/wt', '/work'])).toBe('src/a.ts');
  });
});

describe('parseAnnotations: TypeScript', () => {
  it('reads tsc --pretty false output with its continuation lines', () => {
    const out = [
      "src/config.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.",
      "src/index.ts(3,10): error TS2305: Module '\"./config\"' has no exported member 'load'.",
      "src/util.ts(40,1): error TS2345: Argument of type '{ a: string; }' is not assignable to parameter of type 'Options'.",
      "  Object literal may only specify known properties, and 'a' does not exist in type 'Options'.",
      'Found 3 errors in 3 files.',
    ].join('\n');
    const found = parse(out);
    expect(found.map(where)).toEqual([
      'src/config.ts:12 failure TS2322',
      'src/index.ts:3 failure TS2305',
      'src/util.ts:40 failure TS2345',
    ]);
    expect(found[0]).toEqual({
      path: 'src/config.ts',
      start_line: 12,
      end_line: 12,
      annotation_level: 'failure',
      message: "Type 'string' is not assignable to type 'number'.",
      title: 'TS2322',
    });
    expect(found[2]!.message).toBe(
      "Argument of type '{ a: string; }' is not assignable to parameter of type 'Options'.\n" +
        "Object literal may only specify known properties, and 'a' does not exist in type 'Options'.",
    );
  });

  it('reads the pretty format, colours included, and its absolute paths under the worktree', () => {
    const out = [
      `\u001b[96msrc/a.ts\u001b[0m:\u001b[93m12\u001b[0m:\u001b[93m5\u001b[0m - \u001b[91merror\u001b[0m\u001b[90m TS2322: \u001b[0mType 'string' is not assignable to type 'number'.`,
      '',
      "\u001b[7m12\u001b[0m     const x: number = 'a';",
      '\u001b[7m  \u001b[0m \u001b[91m    ~\u001b[0m',
      '',
      `${WT}/src/b.ts:7:1 - warning TS6133: 'y' is declared but its value is never read.`,
      '',
      'Found 1 error in src/a.ts:12',
    ].join('\n');
    expect(parse(out).map(where)).toEqual([
      'src/a.ts:12 failure TS2322',
      'src/b.ts:7 warning TS6133',
    ]);
    expect(parse(out)[0]!.message).toBe("Type 'string' is not assignable to type 'number'.");
  });
});

describe('parseAnnotations: ESLint', () => {
  it('reads the stylish format (file line, then its problems)', () => {
    const out = [
      '',
      `${WT}/src/server.ts`,
      "   3:10  error    'unused' is defined but never used  @typescript-eslint/no-unused-vars",
      '  14:5   warning  Unexpected console statement        no-console',
      '',
      `${WT}/src/parse.ts`,
      '  0:0  error  Parsing error: Unexpected token )',
      '',
      `/home/someone/elsewhere.ts`,
      '  1:1  error  Outside the repository  no-undef',
      '',
      '✖ 4 problems (3 errors, 1 warning)',
      '  1 error and 0 warnings potentially fixable with the `--fix` option.',
    ].join('\n');
    const found = parse(out);
    expect(found.map(where)).toEqual([
      'src/server.ts:3 failure @typescript-eslint/no-unused-vars',
      'src/server.ts:14 warning no-console',
      'src/parse.ts:1 failure',
    ]);
    expect(found[0]!.message).toBe("'unused' is defined but never used");
    expect(found[2]!.message).toBe('Parsing error: Unexpected token )');
  });

  it('reads the unix and compact formats', () => {
    const out = [
      `${WT}/src/a.js:1:7: 'x' is assigned a value but never used. [Error/no-unused-vars]`,
      `${WT}/src/a.js:2:1: Unexpected console statement. [Warning/no-console]`,
      'src/b.js:9:3: Parsing error: Unexpected token [Error]',
      `${WT}/src/c.js: line 4, col 2, Error - Missing semicolon. (semi)`,
      '',
      '4 problems',
    ].join('\n');
    const found = parse(out);
    expect(found.map(where)).toEqual([
      'src/a.js:1 failure no-unused-vars',
      'src/a.js:2 warning no-console',
      'src/b.js:9 failure',
      'src/c.js:4 failure semi',
    ]);
    expect(found[3]!.message).toBe('Missing semicolon.');
  });
});

describe('parseAnnotations: Jest', () => {
  const jestOutput = [
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
    '  ● math › throws on strings',
    '',
    '    TypeError: Cannot read properties of undefined (reading "length")',
    '',
    `      at length (${WT}/node_modules/lodash/size.js:3:20)`,
    `      at sum (${WT}/src/sum.ts:4:10)`,
    `      at Object.<anonymous> (${WT}/src/sum.test.ts:20:5)`,
    '',
    '  ● Console',
    '',
    '    console.log',
    '      hello',
    '',
    'Test Suites: 1 failed, 1 total',
    'Tests:       2 failed, 1 passed, 3 total',
  ].join('\n');

  it('puts each failing test at the first stack frame the repository owns', () => {
    const found = parse(jestOutput);
    expect(found.map(where)).toEqual([
      'src/sum.test.ts:12 failure math › adds numbers',
      'src/sum.ts:4 failure math › throws on strings',
    ]);
    expect(found[0]!.message).toBe(
      'expect(received).toBe(expected) // Object.is equality\n\nExpected: 4\nReceived: 5',
    );
    expect(found[1]!.message).toBe(
      'TypeError: Cannot read properties of undefined (reading "length")',
    );
  });

  it('falls back to the code frame in the FAIL file when no frame is ours', () => {
    const out = [
      'FAIL test/api.test.js',
      '  ● api › returns 200',
      '',
      '    expect(received).toBe(expected)',
      '',
      '    > 7 |   expect(res.status).toBe(200);',
      '        |                      ^',
      '',
      '      at Object.toBe (node_modules/expect/build/index.js:1:1)',
    ].join('\n');
    expect(parse(out).map(where)).toEqual(['test/api.test.js:7 failure api › returns 200']);
  });

  it('reports a suite that failed to run at its file', () => {
    const out = [
      'FAIL src/broken.test.ts',
      '  ● Test suite failed to run',
      '',
      "    Cannot find module './missing' from 'src/broken.test.ts'",
      '',
      '      at Resolver._throwModNotFoundError (node_modules/jest-resolve/build/resolver.js:427:11)',
    ].join('\n');
    const [found] = parse(out);
    expect(found).toMatchObject({
      path: 'src/broken.test.ts',
      start_line: 1,
      title: 'Test suite failed to run',
      message: "Cannot find module './missing' from 'src/broken.test.ts'",
    });
  });

  it('reads Vitest blocks with their ❯ location', () => {
    const out = [
      '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯',
      '',
      ' FAIL  src/sum.test.ts > math > adds numbers',
      'AssertionError: expected 5 to be 4 // Object.is equality',
      '',
      '- Expected',
      '+ Received',
      '',
      ' ❯ src/sum.test.ts:12:15',
      '     10|   it("adds numbers", () => {',
      '',
      '⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯',
    ].join('\n');
    const [found] = parse(out);
    expect(found).toMatchObject({ path: 'src/sum.test.ts', start_line: 12 });
    expect(found!.title).toBe('math › adds numbers');
    expect(found!.message).toContain('AssertionError: expected 5 to be 4');
  });
});

describe('parseAnnotations: Mocha and TAP', () => {
  it("reads Mocha's failure list", () => {
    const out = [
      '  math',
      '    ✔ subtracts',
      '    1) adds numbers',
      '',
      '  1 passing (8ms)',
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
      `      at Context.<anonymous> (file://${WT}/test/sum.test.mjs:12:12)`,
      '      at process.processImmediate (node:internal/timers:478:21)',
      '',
    ].join('\n');
    const [found, ...rest] = parse(out);
    expect(rest).toEqual([]);
    expect(found).toMatchObject({
      path: 'test/sum.test.mjs',
      start_line: 12,
      title: 'math › adds numbers',
    });
    expect(found!.message).toContain('AssertionError [ERR_ASSERTION]');
  });

  it('reads node:test TAP (stack before location; parents of failed subtests skipped)', () => {
    const out = [
      'TAP version 13',
      '# Subtest: math',
      '    # Subtest: adds numbers',
      '    not ok 1 - adds numbers',
      '      ---',
      '      duration_ms: 1.03',
      "      location: '/tmp/autofix/jobs/run-1/wt/test/sum.test.js:10:3'",
      "      failureType: 'testCodeFailure'",
      '      error: |-',
      '        Expected values to be strictly equal:',
      '        ',
      '        5 !== 4',
      '        ',
      "      code: 'ERR_ASSERTION'",
      '      stack: |-',
      `        TestContext.<anonymous> (file://${WT}/test/sum.test.js:12:12)`,
      '        Test.runInAsyncScope (node:async_hooks:206:9)',
      '      ...',
      '    1..1',
      'not ok 1 - math',
      '  ---',
      '  duration_ms: 2.1',
      "  location: '/tmp/autofix/jobs/run-1/wt/test/sum.test.js:9:1'",
      "  failureType: 'subtestsFailed'",
      "  error: '1 subtest failed'",
      '  ...',
      '1..1',
      '# fail 1',
    ].join('\n');
    const found = parse(out);
    expect(found.map(where)).toEqual(['test/sum.test.js:12 failure adds numbers']);
    expect(found[0]!.message).toBe(
      'adds numbers\nExpected values to be strictly equal:\n\n5 !== 4',
    );
  });

  it("reads tape's at: field and expected/actual", () => {
    const out = [
      'TAP version 13',
      '# sum',
      'ok 1 should be equal',
      'not ok 2 should be strictly equal',
      '  ---',
      '    operator: equal',
      '    expected: 4',
      '    actual:   5',
      `    at: Test.<anonymous> (${WT}/test/sum.js:8:5)`,
      '    stack: |-',
      '      Error: should be strictly equal',
      `          at Test.assert [as _assert] (${WT}/node_modules/tape/lib/test.js:492:48)`,
      '  ...',
      'not ok 3 pending feature # TODO',
      '',
      '1..3',
      '# tests 3',
    ].join('\n');
    const found = parse(out);
    expect(found.map(where)).toEqual(['test/sum.js:8 failure should be strictly equal']);
    expect(found[0]!.message).toBe('should be strictly equal\nexpected: 4\nactual: 5');
  });

  it("reads Mocha's TAP reporter (no YAML: the message and stack are plain lines)", () => {
    const out = [
      '1..1',
      'not ok 1 math adds numbers',
      '  AssertionError [ERR_ASSERTION]: 5 == 4',
      '      at Context.<anonymous> (test/sum.test.js:12:12)',
      '# tests 1',
    ].join('\n');
    const [found] = parse(out);
    expect(found).toMatchObject({
      path: 'test/sum.test.js',
      start_line: 12,
      title: 'math adds numbers',
      message: 'math adds numbers\nAssertionError [ERR_ASSERTION]: 5 == 4',
    });
  });
});

describe('parseAnnotations: pytest', () => {
  it('reads long tracebacks, their E lines, warnings and the short summary', () => {
    const out = [
      '============================= test session starts ==============================',
      'collected 3 items',
      '',
      'tests/test_calc.py F.F                                                   [100%]',
      '',
      '=================================== FAILURES ===================================',
      '___________________________________ test_add ___________________________________',
      '',
      '    def test_add():',
      '>       assert add(2, 2) == 4',
      'E       assert 5 == 4',
      'E        +  where 5 = add(2, 2)',
      '',
      'tests/test_calc.py:5: AssertionError',
      '_______________________________ TestDiv.test_zero _______________________________',
      '',
      'self = <tests.test_calc.TestDiv object at 0x7f>',
      '',
      '    def test_zero(self):',
      '>       div(1, 0)',
      '',
      'tests/test_calc.py:12: ',
      '_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _',
      '',
      '    def div(a, b):',
      '>       return a / b',
      'E       ZeroDivisionError: division by zero',
      '',
      `${WT}/calc/ops.py:3: ZeroDivisionError`,
      '=============================== warnings summary ===============================',
      'tests/test_calc.py::test_old',
      `  ${WT}/tests/test_calc.py:20: DeprecationWarning: old() is deprecated`,
      '    old()',
      '',
      '=========================== short test summary info ============================',
      'FAILED tests/test_calc.py::test_add - assert 5 == 4',
      'FAILED tests/test_calc.py::TestDiv::test_zero - ZeroDivisionError: division by zero',
      'FAILED tests/test_other.py::test_x[1-2] - KeyError: 1',
      '========================= 3 failed, 1 warning in 0.12s =========================',
    ].join('\n');
    const found = parse(out);
    expect(found.map(where)).toEqual([
      'tests/test_calc.py:5 failure test_add',
      'calc/ops.py:3 failure TestDiv.test_zero',
      'tests/test_calc.py:20 warning DeprecationWarning',
      'tests/test_other.py:1 failure test_x[1-2]',
    ]);
    expect(found[0]!.message).toBe('assert 5 == 4\n +  where 5 = add(2, 2)');
    expect(found[1]!.message).toBe('ZeroDivisionError: division by zero');
    expect(found[3]!.message).toBe('KeyError: 1');
  });

  it('puts a short traceback (--tb=short) at its last frame', () => {
    const out = [
      '___________________________________ test_add ___________________________________',
      'tests/test_calc.py:5: in test_add',
      '    assert add(2, 2) == 4',
      'calc.py:2: in add',
      '    return a + b + 1',
      'E   assert 5 == 4',
      '=========================== short test summary info ============================',
      'FAILED tests/test_calc.py::test_add - assert 5 == 4',
    ].join('\n');
    expect(parse(out).map(where)).toEqual(['calc.py:2 failure test_add']);
  });
});

describe('parseAnnotations: hostile and huge output', () => {
  it('drops paths that climb out, absolute paths elsewhere, node_modules and URLs', () => {
    const out = [
      "../../../etc/passwd(1,1): error TS2322: Type 'x' is not assignable.",
      "/etc/shadow(2,1): error TS2322: Type 'x' is not assignable.",
      `${WT}/../sibling/a.ts(3,1): error TS2322: Type 'x' is not assignable.`,
      "node_modules/@types/node/index.d.ts(4,1): error TS2300: Duplicate identifier 'x'.",
      "https://evil.example/a.ts(5,1): error TS2322: Type 'x' is not assignable.",
      "src/ok.ts(6,1): error TS2322: Type 'x' is not assignable.",
    ].join('\n');
    expect(parse(out).map(where)).toEqual(['src/ok.ts:6 failure TS2322']);
  });

  it('strips ANSI escapes, OSC hyperlinks and control characters from messages', () => {
    const out =
      `\u001b]8;;file://${WT}/src/a.ts\u0007src/a.ts\u001b]8;;\u0007(1,2): error TS1005: ` +
      "'\u001b[1m;\u001b[22m' expected.\u0007\u0008\u200b";
    expect(parse(out)).toEqual([
      {
        path: 'src/a.ts',
        start_line: 1,
        end_line: 1,
        annotation_level: 'failure',
        message: "';' expected.",
        title: 'TS1005',
      },
    ]);
  });

  it('keeps the last version of a line redrawn with \\r and reads CRLF output', () => {
    const out = "building 10%\rbuilding 90%\rsrc/a.ts(3,4): error TS1005: ';' expected.\r\n";
    expect(parse(out).map(where)).toEqual(['src/a.ts:3 failure TS1005']);
  });

  it('deduplicates and keeps the first 50 in output order, in bounded time', () => {
    const lines: string[] = [];
    for (let i = 1; i <= 20_000; i++) {
      lines.push(`src/f${i % 400}.ts(${i},1): error TS2322: Type 'string' is not assignable.`);
      if (i % 3 === 0) lines.push(lines.at(-1)!);
    }
    lines.push('x'.repeat(5_000_000));
    const started = performance.now();
    const found = parse(lines.join('\n'));
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(found).toHaveLength(MAX_ANNOTATIONS);
    expect(found[0]!.path).toBe('src/f1.ts');
    expect(found.at(-1)!.start_line).toBe(50);
    expect(new Set(found.map((a) => `${a.path}:${a.start_line}`)).size).toBe(50);
  });

  // Backtracking shows as time growing faster than the lines: the same hostile output with lines
  // four times as long must take about four times as long (quadratic would be sixteen). A ratio,
  // not a wall-clock limit, so a loaded machine does not fail it.
  it('stays linear on lines built to make regular expressions backtrack', () => {
    const hostile = (k: number): string =>
      [
        `${WT}/src/a.ts`,
        ...Array.from({ length: 100 }, () => `  1:1  error  ${' '.repeat(1000 * k)}x`),
        ...Array.from({ length: 100 }, () => `FAILED ${'a.py'.repeat(250 * k)}x`),
        ...Array.from({ length: 100 }, () => `${'a:1:1: '.repeat(145 * k)} [Error`),
        ...Array.from({ length: 100 }, () => `${' '.repeat(1000 * k)}x`),
        ...Array.from({ length: 100 }, () => `not ok 1${' '.repeat(1000 * k)}x`),
        ...Array.from({ length: 100 }, () => `${'('.repeat(500 * k)}${'1'.repeat(500 * k)}`),
        ...Array.from({ length: 100 }, (_, i) => `${'  '.repeat(i * k)}not ok ${i}`),
        ...Array.from({ length: 100 }, () => `a: line 1, col 1, Error - ${' ('.repeat(475 * k)}`),
        ...Array.from({ length: 100 }, () => `${'a.py:1:'.repeat(145 * k)}x`),
        ...Array.from({ length: 100 }, () => `x (${'a:1:1'.repeat(200 * k)}`),
        ...Array.from({ length: 1000 }, () => '  ● t'),
      ].join('\n');
    const fastest = (text: string): number => {
      let best = Infinity;
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        parse(text);
        best = Math.min(best, performance.now() - started);
      }
      return best;
    };
    const short = hostile(1);
    const long = hostile(4);
    fastest(short); // warm the regular expressions and the JIT
    expect(fastest(long) / fastest(short)).toBeLessThan(9);
  });

  it('bounds each message to 1 KB and all of them to 64 KB', () => {
    const long = 'y'.repeat(10_000);
    const out = `src/a.ts(1,1): error TS2322: first\n${`  ${'y'.repeat(300)}\n`.repeat(10)}`;
    const [found] = parse(out);
    expect(found!.message).toHaveLength(1024);
    expect(found!.message.endsWith('…')).toBe(true);

    const many: Annotation[] = Array.from({ length: 50 }, (_, i) => ({
      path: 'src/a.ts',
      start_line: i + 1,
      end_line: i + 1,
      annotation_level: 'failure' as const,
      message: long,
    }));
    const bounded = boundAnnotations(many, { maxMessageChars: 4000, maxTotalChars: 10_000 });
    expect(bounded.reduce((n, a) => n + a.message.length, 0)).toBeLessThanOrEqual(10_000);
    expect(bounded).toHaveLength(3);
  });

  it('boundAnnotations drops paths that are not plain repository paths and fixes line numbers', () => {
    const bounded = boundAnnotations([
      { path: '../x.ts', start_line: 1, end_line: 1, annotation_level: 'failure', message: 'a' },
      { path: '/abs.ts', start_line: 1, end_line: 1, annotation_level: 'failure', message: 'a' },
      { path: 'ok.ts', start_line: 0, end_line: -3, annotation_level: 'notice', message: ' ' },
    ]);
    expect(bounded).toEqual([
      { path: 'ok.ts', start_line: 1, end_line: 1, annotation_level: 'notice', message: 'failed' },
    ]);
  });

  it('finds nothing in output without locations', () => {
    expect(parse('npm ERR! code ELIFECYCLE\nnpm ERR! errno 1\n')).toEqual([]);
    expect(parse('')).toEqual([]);
  });
});
