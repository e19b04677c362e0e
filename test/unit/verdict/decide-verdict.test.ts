import type { CommandResult } from '../../../src/contracts.js';
import { decideVerdict, type VerdictInput } from '../../../src/verdict/decide-verdict.js';

const cmd = (command: string, exit: number | null, timedOut = false): CommandResult => ({
  command,
  exit_code: exit,
  stdout: '',
  stderr: '',
  duration_ms: 10,
  timed_out: timedOut,
});

const input = (over: Partial<VerdictInput> = {}): VerdictInput => ({
  headSha: 'a'.repeat(40),
  runId: 'run-1',
  validation: [cmd('npm test', 0)],
  preexisting: [],
  changes: [{ path: './src/a.ts' }],
  planFiles: ['src/a.ts'],
  amendments: [],
  sandbox: 'bwrap',
  ...over,
});

describe('decideVerdict', () => {
  it('succeeds when a command passed and the change stayed in the plan (paths as `./x` too)', () => {
    expect(decideVerdict(input())).toMatchObject({
      conclusion: 'success',
      outsidePlan: [],
      reproduction: 'none',
    });
  });

  it('fails on a new failure or time-out, not on one that failed on the base commit too', () => {
    const failed = decideVerdict(
      input({ validation: [cmd('npm test', 0), cmd('lint', null, true)] }),
    );
    expect(failed.conclusion).toBe('failure');
    expect(failed.failed.map((r) => r.command)).toEqual(['lint']);
    const old = decideVerdict(
      input({ validation: [cmd('npm test', 0), cmd('lint', 1)], preexisting: ['lint'] }),
    );
    expect(old).toMatchObject({ conclusion: 'success', failed: [] });
    expect(old.preexisting.map((r) => r.command)).toEqual(['lint']);
  });

  it('counts an amended file and the reproduction file as in scope, any other as outside', () => {
    const verdict = decideVerdict(
      input({
        changes: [
          { path: 'src/a.ts' },
          { path: 'src/b.ts' },
          { path: 'src/c.ts' },
          { path: 't/r.test.ts' },
        ],
        amendments: [{ path: './src/b.ts', why: 'shared helper' }],
        reproduction: {
          test: 't',
          file: 't/r.test.ts',
          base: { exitCode: 1, excerpt: '' },
          head: { exitCode: 0 },
        },
      }),
    );
    expect(verdict).toMatchObject({
      conclusion: 'failure',
      outsidePlan: ['src/c.ts'],
      amended: [{ path: 'src/b.ts', why: 'shared helper' }],
      reproduction: 'fail-to-pass',
    });
    // A re-run has no plan to compare with: nothing is outside it.
    expect(
      decideVerdict(input({ planFiles: undefined, changes: [{ path: 'x.ts' }] })).outsidePlan,
    ).toEqual([]);
  });

  it('is neutral when nothing verified the change, and fails when the reproduction still fails', () => {
    expect(decideVerdict(input({ validation: [] })).conclusion).toBe('neutral');
    const repro = (head: number | null) =>
      decideVerdict(
        input({
          validation: [],
          reproduction: { test: 't', base: { exitCode: 1, excerpt: '' }, head: { exitCode: head } },
        }),
      );
    expect(repro(0).conclusion).toBe('success');
    expect(repro(1)).toMatchObject({ conclusion: 'failure', reproduction: 'still-fails' });
  });
});
