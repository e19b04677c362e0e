import {
  describeReproduction,
  validationOf,
  type LocalRunReport,
} from '../../../../src/hosts/local/local-run-report.js';

const reproduced = {
  status: 'reproduced' as const,
  duration_ms: 10,
  path: 'test/issue-7.test.js',
  content: '',
  command: 'node --test test/issue-7.test.js',
  test_name: 'add is a sum',
  base_failure: 'AssertionError',
  base_exit_code: 1,
};
const report = (over: Partial<LocalRunReport>): LocalRunReport => ({
  runId: 'run-1',
  artifactsDir: '/nowhere',
  outcome: 'failed',
  ...over,
});

describe("what autofix run's report says of the reproduction", () => {
  it('claims "passes with the fix" only when its command passed with the change', () => {
    const ok = { command: reproduced.command, exit_code: 0, timed_out: false, duration_ms: 5 };
    const line = describeReproduction(
      report({
        outcome: 'success',
        result: {
          stage: 'pr',
          reproduction: reproduced,
          code: { validation: [ok] } as never,
        },
      }),
    );
    expect(line).toBe(
      'Reproduction: test/issue-7.test.js (node --test test/issue-7.test.js) failed on the base commit, passes with the fix',
    );
  });

  it('says it still fails when the run failed VALIDATION_FAILED on it', () => {
    const details = {
      root_cause: {},
      validation: [
        { command: 'node test.js', exit_code: 0, timed_out: false },
        { command: reproduced.command, exit_code: 1, timed_out: false },
      ],
    };
    const failed = report({
      result: { stage: 'code', reproduction: reproduced },
      failure: {
        stage: 'code',
        code: 'VALIDATION_FAILED',
        message: 'x',
        validation: validationOf(details)!,
      },
    });
    const line = describeReproduction(failed)!;
    expect(line).not.toContain('passes');
    expect(line).toContain('failed on the base commit and still fails with the change (exit 1)');
  });

  it('says it did not run when validation stopped before it, and why there is none', () => {
    const stopped = report({
      result: { stage: 'code', reproduction: reproduced },
      failure: {
        stage: 'code',
        code: 'VALIDATION_FAILED',
        message: 'x',
        validation: [{ command: 'node test.js', exit_code: 1, timed_out: false }],
      },
    });
    expect(describeReproduction(stopped)).toMatch(
      /failed on the base commit; not run with the change$/,
    );
    const none = report({
      result: {
        stage: 'pr',
        reproduction: { status: 'skipped', reason: 'reproduce: off', duration_ms: 0 },
      },
    });
    expect(describeReproduction(none)).toBe('Reproduction: none (reproduce: off)');
  });

  it('reads only well-formed validation details', () => {
    expect(validationOf(undefined)).toBeUndefined();
    expect(validationOf({ validation: 'x' })).toBeUndefined();
    expect(
      validationOf({ validation: [{ command: 1 }, { command: 'a', exit_code: null }] }),
    ).toEqual([{ command: 'a', exit_code: null, timed_out: false }]);
  });
});
