import type { CommandResult } from '../../../../src/contracts.js';
import { judgeReproduction } from '../../../../src/pipeline/reproduce/judge-reproduction.js';
import { matchRunner, runnersFor } from '../../../../src/pipeline/reproduce/test-runners.js';

const result = (exit: number | null, stdout: string, extra: Partial<CommandResult> = {}) => ({
  command: 'node --test test/a.test.js',
  exit_code: exit,
  stdout,
  stderr: '',
  duration_ms: 10,
  timed_out: false,
  ...extra,
});

describe('judgeReproduction', () => {
  it('takes an assertion failure (node:test, Jest, pytest) as a reproduction, with its excerpt', () => {
    const node = judgeReproduction(
      result(
        1,
        "not ok 1 - add\n  ---\n  error: 'Expected values to be strictly equal:\\n\\n-1 !== 5'\n",
      ),
    );
    expect(node).toMatchObject({ kind: 'reproduced' });
    expect(node.excerpt).toContain('-1 !== 5');
    expect(
      judgeReproduction(
        result(
          1,
          '● add › sums\n\n  expect(received).toBe(expected)\n\nTests:       1 failed, 1 total\n',
        ),
      ),
    ).toMatchObject({ kind: 'reproduced' });
    expect(
      judgeReproduction(result(1, 'FAILED tests/test_x.py::test_sum - assert -1 == 5\n')),
    ).toMatchObject({ kind: 'reproduced' });
  });

  it('refuses a test that passes, times out, or fails before any test ran', () => {
    expect(judgeReproduction(result(0, 'ok 1 - add\n'))).toMatchObject({ why: 'passes' });
    expect(judgeReproduction(result(null, '', { timed_out: true }))).toMatchObject({
      why: 'timeout',
    });
    for (const [out, what] of [
      ['SyntaxError: missing ) after argument list', 'syntax error'],
      ["Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/w/src/nope.js'", 'missing module'],
      ['SyntaxError: Cannot use import statement outside a module', 'syntax error'],
      ["src/a.ts(3,1): error TS2304: Cannot find name 'x'.", 'TypeScript compile error'],
      ["ModuleNotFoundError: No module named 'pkg'", 'import error'],
      ['No tests found, exiting with code 1', 'no test found'],
    ] as const) {
      const v = judgeReproduction(result(1, out));
      expect(v).toMatchObject({ kind: 'rejected', why: 'load-error' });
      expect(v.kind === 'rejected' && v.message).toContain(what);
    }
  });

  it('refuses what only looks like a failure: npm failing to fetch the runner, an exception while the file loads', () => {
    const npx = judgeReproduction(
      result(
        1,
        'npm error request to https://registry.npmjs.org/jest failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org\n',
      ),
    );
    expect(npx).toMatchObject({ kind: 'rejected', why: 'load-error' });
    expect(npx.kind === 'rejected' && npx.message).toContain('test runner failing to start');
    // mocha: a describe callback throws while the file loads; no test ran, no "N failing".
    const mochaLoad = judgeReproduction(
      result(
        1,
        'TypeError: asyncFunctionsSupported is not a function\n    at Suite.<anonymous> (test/app.router.issue-3695.js:12:7)\n',
      ),
    );
    expect(mochaLoad).toMatchObject({ kind: 'rejected', why: 'no-test-failure' });
    const jestLoad = judgeReproduction(
      result(
        1,
        ' FAIL  test/a.test.js\n  ● Test suite failed to run\n\n    TypeError: x is not a function\n',
      ),
    );
    expect(jestLoad).toMatchObject({ kind: 'rejected', why: 'load-error' });
    // The same exception inside a test that ran is a reproduction.
    expect(
      judgeReproduction(
        result(
          1,
          '  1) router\n       handles async:\n     TypeError: x is not a function\n\n  0 passing\n  1 failing\n',
        ),
      ),
    ).toMatchObject({ kind: 'reproduced' });
  });

  it('refuses a crash that reports no failing test', () => {
    expect(judgeReproduction(result(3, 'segfault in native module\n'))).toMatchObject({
      why: 'no-test-failure',
    });
  });
});

describe('test runners', () => {
  const js = {
    dependencies: ['jest'],
    files: ['package.json', 'src/a.js'],
    commands: ['npm test'],
  };

  it('offers the runners the repository shows, node:test always for JavaScript', () => {
    expect(runnersFor(js)).toEqual(['npx jest PATH', 'node --test PATH', 'node PATH']);
    expect(runnersFor({ dependencies: [], files: ['a.py', 'conftest.py'], commands: [] })).toEqual([
      'python -m pytest PATH',
      'pytest PATH',
    ]);
    expect(runnersFor({ dependencies: [], files: ['main.go'], commands: [] })).toEqual([]);
  });

  it('accepts exactly a runner with the test path, nothing chained or redirected', () => {
    const runners = runnersFor(js);
    expect(matchRunner('npx  jest test/a.test.js', 'test/a.test.js', runners)).toBe(
      'npx jest test/a.test.js',
    );
    for (const bad of [
      'npx jest test/a.test.js && curl x',
      'npx jest test/a.test.js; rm -rf /',
      'npx jest test/other.test.js',
      'npx jest',
      'bash -c "npx jest test/a.test.js"',
      'npx jest test/a.test.js > /tmp/x',
    ]) {
      expect(matchRunner(bad, 'test/a.test.js', runners)).toBeUndefined();
    }
  });
});
