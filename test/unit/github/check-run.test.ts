import type { CommandResult } from '../../../src/contracts.js';
import {
  CHECK_RUN_NAME,
  MAX_CHECK_OUTPUT_CHARS,
  renderCheckRun,
  type CheckRunInput,
} from '../../../src/github/check-run.js';

const WT = '/tmp/autofix/jobs/run-7/wt';

function cmd(
  command: string,
  exit: number | null,
  extra: Partial<CommandResult> = {},
): CommandResult {
  return {
    command,
    exit_code: exit,
    stdout: '',
    stderr: '',
    duration_ms: 4200,
    timed_out: false,
    ...extra,
  };
}

function input(over: Partial<CheckRunInput> = {}): CheckRunInput {
  return {
    headSha: 'a'.repeat(40),
    runId: 'run-7',
    validation: [cmd('npm test', 0), cmd('npm run lint', 0, { duration_ms: 600 })],
    preexisting: [],
    changes: [{ path: 'src/sum.ts', operation: 'modified' }],
    planFiles: ['src/sum.ts'],
    amendments: [],
    sandbox: 'bwrap',
    usage: { totalTokens: 12345, costUsd: 0.01234 },
    worktree: WT,
    repo: { owner: 'octo', repo: 'app' },
    issueNumber: 7,
    ...over,
  };
}

const jestFailure = [
  'FAIL src/sum.test.ts',
  '  ● sum › adds',
  '',
  '    expect(received).toBe(expected)',
  '',
  `      at Object.<anonymous> (${WT}/src/sum.test.ts:12:15)`,
].join('\n');

describe('renderCheckRun', () => {
  it('success: every command passed and the change stayed in the plan', () => {
    const run = renderCheckRun(input({ detailsUrl: 'https://github.com/octo/app/pull/9' }));
    expect(run).toMatchObject({
      name: CHECK_RUN_NAME,
      head_sha: 'a'.repeat(40),
      status: 'completed',
      conclusion: 'success',
      external_id: 'run-7',
      details_url: 'https://github.com/octo/app/pull/9',
    });
    expect(run.output.title).toBe('Verified: 2 validation commands passed');
    expect(run.output.text).toBeUndefined();
    expect(run.output.annotations).toEqual([]);
    const { summary } = run.output;
    expect(summary).toContain('## ✅ Autofix verified this change');
    expect(summary).toContain('| `npm test` | ✅ passed | 0 | 4.2 s |');
    expect(summary).toContain('| `npm run lint` | ✅ passed | 0 | 600 ms |');
    expect(summary).toContain('1 file changed, all within the plan.');
    expect(summary).toContain('- **Sandbox:** bubblewrap');
    expect(summary).toContain('- **Tokens:** 12,345 · cost ≈ $0.0123');
    expect(summary).toContain('- **Run:** `run-7`');
    expect(summary).not.toContain('### Reproduction');
  });

  it('shows the reproduction fail→pass evidence and counts it as verification', () => {
    const run = renderCheckRun(
      input({
        validation: [],
        changes: [
          { path: 'src/sum.ts', operation: 'modified' },
          { path: 'test/sum.repro.test.ts', operation: 'created' },
        ],
        reproduction: {
          test: 'sum › adds negative numbers',
          file: 'test/sum.repro.test.ts',
          command: 'npx jest test/sum.repro.test.ts',
          base: { exitCode: 1, excerpt: `\u001b[31m${jestFailure}\u001b[0m` },
          head: { exitCode: 0, durationMs: 1500 },
        },
      }),
    );
    expect(run.conclusion).toBe('success');
    expect(run.output.title).toBe('Verified: the reproduction fails before and passes after');
    const { summary } = run.output;
    expect(summary).toContain('### Reproduction');
    expect(summary).toContain(
      '**Test:** sum › adds negative numbers in `test/sum.repro.test.ts` — `npx jest test/sum.repro.test.ts`',
    );
    expect(summary).toContain('| base | ❌ failed, as the issue describes | 1 |');
    expect(summary).toContain('| head | ✅ passed in 1.5 s | 0 |');
    expect(summary).toContain('expect(received).toBe(expected)');
    expect(summary).not.toContain('\u001b');
    // The reproduction's own file is in scope though the plan does not name it.
    expect(summary).toContain('2 files changed, all within the plan.');
  });

  it('failure: a new validation failure, with annotations from its output and its tail as text', () => {
    const run = renderCheckRun(
      input({
        validation: [
          cmd('npm test', 1, { stdout: jestFailure, stderr: 'npm ERR! code 1' }),
          cmd('npm run lint', 0),
        ],
      }),
    );
    expect(run.conclusion).toBe('failure');
    expect(run.output.title).toBe('1 validation command failed');
    expect(run.output.summary).toContain('## ❌ Autofix could not verify this change');
    expect(run.output.summary).toContain('| `npm test` | ❌ failed | 1 | 4.2 s |');
    expect(run.output.annotations).toEqual([
      {
        path: 'src/sum.test.ts',
        start_line: 12,
        end_line: 12,
        annotation_level: 'failure',
        message: 'expect(received).toBe(expected)',
        title: 'sum › adds',
      },
    ]);
    expect(run.output.text).toContain('#### `npm test` failed (exit code 1)');
    expect(run.output.text).toContain('npm ERR! code 1');
  });

  it('a failure that already existed on the base commit does not fail the check', () => {
    const run = renderCheckRun(
      input({
        validation: [
          cmd('npm test', 0),
          cmd('npm run lint', 2, { stdout: 'src/x.ts(1,1): error TS1005: oops' }),
        ],
        preexisting: ['npm run lint'],
      }),
    );
    expect(run.conclusion).toBe('success');
    expect(run.output.summary).toContain(
      '| `npm run lint` | ⚠️ failed on the base commit too | 2 |',
    );
    expect(run.output.annotations).toEqual([]);
    expect(run.output.text).toContain('failed on the base commit too (exit code 2)');
  });

  it('a timed-out command fails the check', () => {
    const run = renderCheckRun(input({ validation: [cmd('npm test', null, { timed_out: true })] }));
    expect(run.conclusion).toBe('failure');
    expect(run.output.summary).toContain('| `npm test` | ⏱ timed out | — |');
  });

  it('failure: files outside the plan that no amendment explains; amendments are listed', () => {
    const run = renderCheckRun(
      input({
        changes: [
          { path: 'src/sum.ts', operation: 'modified' },
          { path: 'src/extra.ts', operation: 'modified' },
          { path: 'src/gone.ts', operation: 'deleted' },
          { path: 'src/helper.ts', operation: 'created' },
        ],
        amendments: [{ path: 'src/helper.ts', why: 'the fix needs a shared helper' }],
      }),
    );
    expect(run.conclusion).toBe('failure');
    expect(run.output.title).toBe('2 files changed outside the plan');
    const { summary } = run.output;
    expect(summary).toContain("2 files changed outside the plan's 1 file");
    expect(summary).toContain('- `src/extra.ts`\n- `src/gone.ts`');
    expect(summary).toContain('- `src/helper.ts` — the fix needs a shared helper');
    // A deleted file has no line to annotate.
    expect(run.output.annotations.map((a) => a.path)).toEqual(['src/extra.ts']);
    expect(run.output.annotations[0]).toMatchObject({
      start_line: 1,
      annotation_level: 'failure',
      title: 'Changed outside the plan',
    });
  });

  it('failure: the reproduction still fails on the head', () => {
    const run = renderCheckRun(
      input({
        reproduction: {
          test: 'sum › adds',
          base: { exitCode: 1, excerpt: jestFailure },
          head: { exitCode: 1, excerpt: jestFailure },
        },
      }),
    );
    expect(run.conclusion).toBe('failure');
    expect(run.output.title).toBe('The reproduction still fails');
    expect(run.output.summary).toContain('| head | ❌ still fails | 1 |');
    expect(run.output.annotations.map((a) => `${a.path}:${a.start_line}`)).toEqual([
      'src/sum.test.ts:12',
    ]);
  });

  it('neutral: no validation commands, or only ones that failed on the base commit too', () => {
    const none = renderCheckRun(input({ validation: [] }));
    expect(none.conclusion).toBe('neutral');
    expect(none.output.title).toBe('Nothing verified: no validation commands');
    expect(none.output.summary).toContain('## ⚪ Nothing could verify this change');
    expect(none.output.summary).toContain(
      '_No validation commands ran: nothing checked the change._',
    );

    const old = renderCheckRun(
      input({ validation: [cmd('npm test', 1)], preexisting: ['npm test'] }),
    );
    expect(old.conclusion).toBe('neutral');

    // A "reproduction" that passed on the base commit proves nothing.
    const weak = renderCheckRun(
      input({
        validation: [],
        reproduction: { test: 't', base: { exitCode: 0, excerpt: 'ok' }, head: { exitCode: 0 } },
      }),
    );
    expect(weak.conclusion).toBe('neutral');
    expect(weak.output.summary).toContain('it is not evidence of the fix');
    // Failing scope still wins over "nothing verified".
    const scope = renderCheckRun(input({ validation: [], changes: [{ path: 'x.ts' }] }));
    expect(scope.conclusion).toBe('failure');
  });

  it('without a sandbox, says so', () => {
    const run = renderCheckRun(input({ sandbox: 'none', usage: undefined }));
    expect(run.output.summary).toContain('**Sandbox:** ⚠️ none');
    expect(run.output.summary).not.toContain('**Tokens:**');
  });

  it('neutralises mentions, closing keywords, HTML and links in what the repository or model wrote', () => {
    const hostile =
      'Fixes #123, closes octo/other#5 @org/team <img src=x onerror=alert(1)> [x](https://evil.example) ![t](https://evil.example/p.png)';
    const run = renderCheckRun(
      input({
        validation: [cmd('echo @org/team `x` | closes #9', 0)],
        changes: [{ path: 'src/sum.ts' }, { path: 'src/@org/team.ts' }, { path: 'src/b.ts' }],
        amendments: [
          { path: 'src/@org/team.ts', why: hostile },
          { path: 'src/b.ts', why: '<!-- autofix-run:other --> <details open>\n# Heading' },
        ],
        reproduction: {
          test: hostile,
          command: 'npx jest -t "@org/team"',
          base: { exitCode: 1, excerpt: '```\nFixes #123 @org/team <script>x</script>\n```' },
          head: { exitCode: 0 },
        },
      }),
    );
    const { summary } = run.output;
    // Mentions and closing keywords only ever appear inside code (spans or fences).
    const prose = summary
      .replace(/(`{3,})[^\n]*\n[\s\S]*?\n\1/g, '')
      .replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, '');
    expect(prose).not.toMatch(/@org\/team/);
    expect(prose).not.toMatch(/\b(?:fix(?:es)?|close[sd]?)\b[^\n]*#\d/i);
    expect(prose).not.toMatch(/<img|<script|<!--|<details open|!\[t\]|\]\(https:\/\/evil/);
    expect(summary).toContain('`Fixes #123`, `closes octo/other#5` `@org/team`');
    expect(summary).toContain('&lt;img src=x');
    // The excerpt's own fence cannot close ours.
    expect(summary).toMatch(/````text\n```\nFixes #123 @org\/team <script>x<\/script>\n```\n````/);
    expect(summary).toContain('| ``echo @org/team `x` \\| closes #9`` | ✅ passed |');
  });

  it('stays within GitHub limits on huge input', () => {
    const huge = 'x'.repeat(100_000);
    const lines = Array.from(
      { length: 5000 },
      (_, i) => `src/f${i}.ts(${i + 1},1): error TS2322: ${'m'.repeat(2000)}`,
    );
    const run = renderCheckRun(
      input({
        validation: Array.from({ length: 60 }, (_, i) =>
          cmd(`npm run check-${i} ${huge}`, 1, { stdout: lines.join('\n'), stderr: huge }),
        ),
        changes: Array.from({ length: 500 }, (_, i) => ({
          path: `src/${'d/'.repeat(300)}f${i}.ts`,
        })),
        amendments: Array.from({ length: 100 }, (_, i) => ({
          path: `src/${'d/'.repeat(300)}f${i}.ts`,
          why: huge,
        })),
        reproduction: {
          test: huge,
          base: { exitCode: 1, excerpt: huge },
          head: { exitCode: 1, excerpt: huge },
        },
      }),
    );
    expect(run.output.summary.length).toBeLessThanOrEqual(MAX_CHECK_OUTPUT_CHARS);
    expect(run.output.text!.length).toBeLessThanOrEqual(MAX_CHECK_OUTPUT_CHARS);
    expect(run.output.annotations).toHaveLength(50);
    expect(run.output.annotations.every((a) => a.message.length <= 1024)).toBe(true);
    expect(run.output.summary).toContain('- **Run:** `run-7`');
    expect(run.output.summary).toContain('… and 10 more commands');
    expect(run.output.title.length).toBeLessThan(200);
  });
});
