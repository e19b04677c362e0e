import type { CommandResult } from '../../../src/contracts.js';
import {
  failureCount,
  failureNames,
  looksLikeNetworkFailure,
} from '../../../src/exec/failure-signature.js';
import {
  baselineEntry,
  baselineKey,
  judgeFailure,
  mentionsAnyOf,
  touchesSetupInputs,
} from '../../../src/pipeline/code/baseline.js';
import { DEFAULT_REPO_CONFIG } from '../../../src/config/repo-config.js';

const result = (
  stdout: string,
  exit_code: number | null = 1,
  timed_out = false,
): CommandResult => ({
  command: 'npm test',
  exit_code,
  stdout,
  stderr: '',
  duration_ms: 10,
  timed_out,
});

describe('failureNames', () => {
  it.each([
    [
      'jest',
      'PASS a.test.js\nFAIL test/b.test.js (1.2 s)\n  ● parse › handles dates\n',
      ['parse › handles dates', 'test/b.test.js'],
    ],
    ['vitest', ' FAIL  src/x.test.ts > sums\n × sums 12ms\n', ['src/x.test.ts > sums', 'sums']],
    ['tap', 'ok 1 - a\nnot ok 2 - fetches rates # time=3ms\n', ['fetches rates # time=3ms']],
    ['node:test', '✔ a (1.1ms)\n✖ b fails (2.5ms)\n', ['b fails']],
    ['mocha', '  2 passing\n  1 failing\n\n  1) Router\n       matches paths:\n', ['Router']],
    ['pytest', 'FAILED tests/test_a.py::test_x - assert 1 == 2\n', ['tests/test_a.py::test_x']],
    ['go', '--- FAIL: TestAdd (0.00s)\n', ['TestAdd']],
    [
      'tsc',
      "src/a.ts(10,5): error TS2322: Type 'x'\nsrc/b.ts:3:1 - error TS2304: Cannot find\n",
      ['src/a.ts TS2322', 'src/b.ts TS2304'],
    ],
  ])('reads %s output', (_runner, output, names) => {
    expect([...(failureNames(output) ?? [])].sort()).toEqual([...names].sort());
  });

  it('names nothing in output it does not recognise', () => {
    expect(failureNames('Error: something broke\n    at x (a.js:1:1)\n')).toBeNull();
  });

  it('ignores the durations that differ between two runs of the same failure', () => {
    expect(failureNames('✖ b fails (2.5ms)')).toEqual(failureNames('✖ b fails (31ms)'));
  });

  it('tells a network failure', () => {
    expect(looksLikeNetworkFailure('getaddrinfo EAI_AGAIN registry.npmjs.org')).toBe(true);
    expect(looksLikeNetworkFailure('TypeError: fetch failed')).toBe(true);
    expect(looksLikeNetworkFailure('expected 5, got 6')).toBe(false);
  });
});

describe('judgeFailure (the baseline rule)', () => {
  const base = (stdout: string, exit = 1, timedOut = false) =>
    baselineEntry(result(stdout, exit, timedOut));

  it('blames the change for a command that passed on the base commit, or with no baseline', () => {
    expect(judgeFailure(result('not ok 1 - a'), base('ok 1 - a', 0)).kind).toBe('new');
    expect(judgeFailure(result('not ok 1 - a'), undefined).kind).toBe('new');
  });

  it('excuses the same failures, and blames any new one by name', () => {
    const before = base('not ok 1 - net\nok 2 - add');
    expect(judgeFailure(result('not ok 1 - net\nok 2 - add'), before)).toEqual(
      expect.objectContaining({ kind: 'preexisting' }),
    );
    expect(judgeFailure(result('not ok 1 - net\nnot ok 2 - add'), before)).toEqual({
      kind: 'new',
      newFailures: ['add'],
    });
    // Fewer failures than before is not the change's fault either.
    expect(judgeFailure(result('not ok 1 - net'), base('not ok 1 - net\nnot ok 2 - x')).kind).toBe(
      'preexisting',
    );
  });

  it('blames a change after which the runner names nothing (a crash before any test) or newly times out', () => {
    expect(judgeFailure(result('SyntaxError: Unexpected token'), base('not ok 1 - net')).kind).toBe(
      'new',
    );
    expect(judgeFailure(result('', null, true), base('boom')).kind).toBe('new');
  });

  it('excuses an unnamed failure only with the same exit code, and says it could not compare', () => {
    const verdict = judgeFailure(result('boom', 2), base('boom', 2));
    expect(verdict.kind).toBe('preexisting');
    expect(verdict.kind === 'preexisting' && verdict.note).toContain('could not be compared');
    expect(judgeFailure(result('boom', 1), base('boom', 2)).kind).toBe('new');
  });

  it('keys the cache by commit and the commands, not by anything else', () => {
    const a = baselineKey('abc', DEFAULT_REPO_CONFIG, 'bwrap');
    expect(baselineKey('abc', { ...DEFAULT_REPO_CONFIG }, 'bwrap')).toBe(a);
    expect(baselineKey('abd', DEFAULT_REPO_CONFIG, 'bwrap')).not.toBe(a);
    expect(
      baselineKey('abc', { ...DEFAULT_REPO_CONFIG, validate: ['npm test'] }, 'bwrap'),
    ).not.toBe(a);
    expect(baselineKey('abc', DEFAULT_REPO_CONFIG, 'none')).not.toBe(a);
  });

  it('runs setup again only when the change touched a dependency manifest', () => {
    expect(touchesSetupInputs(['src/a.js'])).toBe(false);
    expect(touchesSetupInputs(['packages/x/package.json'])).toBe(true);
    expect(touchesSetupInputs(['requirements-dev.txt'])).toBe(true);
  });
});

describe('failure counts', () => {
  it.each([
    ['jest', 'Tests:       2 failed, 5 passed, 7 total', 2],
    ['vitest', '      Tests  3 failed | 4 passed (7)', 3],
    ['mocha', '  4 passing (8ms)\n  2 failing\n', 2],
    ['tap', '# pass 3\n# fail 1\n', 1],
    ['node:test', 'ℹ pass 3\nℹ fail 2\n', 2],
    ['pytest', '==== 2 failed, 10 passed in 0.12s ====', 2],
    ['eslint', '/r/a.js\n  1:1  error  x  no-undef\n\n✖ 3 problems (3 errors, 0 warnings)\n', 3],
    ['tsc', 'src/a.ts(1,1): error TS2304: x\n\nFound 2 errors in the same file.\n', 2],
  ])('reads %s summaries', (_runner, output, count) => {
    expect(failureCount(output)).toBe(count);
  });

  it('blames a new lint problem in a lint command that already failed', () => {
    const before = baselineEntry(
      result('/r/a.js\n  1:1  error  x  no-undef\n\n✖ 1 problem (1 error)\n'),
    );
    const after = result(
      '/r/a.js\n  1:1  error  x  no-undef\n  4:2  error  y  no-undef\n\n✖ 2 problems (2 errors)\n',
    );
    expect(judgeFailure(after, before).kind).toBe('new');
    expect(
      judgeFailure(result('/r/a.js\n  1:1  error  x  no-undef\n\n✖ 1 problem (1 error)\n'), before)
        .kind,
    ).toBe('preexisting');
  });

  it('blames a new failure listed under a name that was already failing (Mocha suites)', () => {
    const before = baselineEntry(
      result('  1) Router\n       matches paths:\n  Error\n\n  1 failing\n'),
    );
    const after = result(
      '  1) Router\n       matches paths:\n  Error\n  2) Router\n       strict mode:\n  Error\n\n  2 failing\n',
    );
    expect(judgeFailure(after, before).kind).toBe('new');
  });
});

describe('a failure that already existed but is about the issue', () => {
  const about = mentionsAnyOf(['paginate', 'pager']);

  it('is the change to fix: the failing test that shows the bug', () => {
    const base = baselineEntry(
      result('not ok 3 - page past the end\n  at paginate (src/pager.js:4)'),
    );
    const same = result('not ok 3 - page past the end\n  at paginate (src/pager.js:4)');
    expect(judgeFailure(same, base)).toEqual(expect.objectContaining({ kind: 'preexisting' }));
    expect(judgeFailure(same, base, about)).toEqual({
      kind: 'new',
      newFailures: null,
      aboutTheIssue: true,
    });
  });

  it('unless it needs the network, or only a passing line names the issue', () => {
    const net = result('not ok 1 - paginate fetches\n  # getaddrinfo EAI_AGAIN api.example.org');
    expect(judgeFailure(net, baselineEntry(net), about).kind).toBe('preexisting');
    const other = result('ok 1 - paginate works\nnot ok 2 - talks to the server');
    expect(judgeFailure(other, baselineEntry(other), about).kind).toBe('preexisting');
  });

  it('matches whole words only', () => {
    expect(mentionsAnyOf(['add'])('TypeError in address.js')).toBe(false);
    expect(mentionsAnyOf(['add'])('at add (math.js:2)')).toBe(true);
    expect(mentionsAnyOf(['$el'])('x.$el is null')).toBe(true);
  });
});
