import { renderStatusComment } from '../../../src/github/render-status-comment.js';
import type { StatusFacts } from '../../../src/github/types.js';

const order = ['triage', 'plan', 'code', 'pr'];
const render = (facts: StatusFacts): string =>
  renderStatusComment({ runId: 'run-1', stageOrder: order, facts, command: '/autofix' });

describe('renderStatusComment', () => {
  it('starts with the hidden run marker and lists every stage in order', () => {
    const body = render({ stages: { triage: { state: 'running' } } });
    expect(body.startsWith('<!-- autofix-run:run-1 -->')).toBe(true);
    expect(body).toContain('🤖 Autofix is working on this');
    expect(body).toMatch(/\| triage \| ⏳ running \| +\|\n\| plan \| ⬜ pending/);
    expect(body).not.toContain('**Risk:**');
  });

  it('shows risk, plan, files, validation, the PR, tokens and cost once known', () => {
    const body = render({
      stages: {
        triage: { state: 'done', durationMs: 1500 },
        plan: { state: 'done', durationMs: 800 },
        code: { state: 'done', durationMs: 65_000 },
        pr: { state: 'done', durationMs: 300 },
      },
      risk: 'MEDIUM',
      summary: 'Null check | in parser',
      planSteps: ['Guard the null', 'Add a test'],
      files: [{ path: 'src/a.ts', operation: 'modified' }],
      validation: [
        { command: 'npm test', exitCode: 0, durationMs: 4200 },
        { command: 'npm run lint', exitCode: null, durationMs: 600_000, timedOut: true },
      ],
      pr: { number: 9, url: 'https://github.com/o/r/pull/9', draft: true },
      usage: { totalTokens: 12345, costUsd: 0.01234 },
      outcome: { kind: 'success' },
    });
    expect(body).toContain('🚀 Autofix opened a pull request');
    expect(body).toContain('| code | ✅ done | 65.0 s |');
    expect(body).toContain('**Risk:** MEDIUM — Null check \\| in parser');
    expect(body).toContain('1. Guard the null\n2. Add a test');
    expect(body).toContain('| `src/a.ts` | modified |');
    expect(body).toContain('| `npm test` | ✅ | 0 | 4.2 s |');
    expect(body).toContain('| `npm run lint` | ⏱ timed out | — | 10 min 0 s |');
    expect(body).toContain('**Pull request:** #9 (draft) — https://github.com/o/r/pull/9');
    expect(body).toContain('12,345 tokens · cost ≈ $0.0123');
  });

  it('says when validation passed only after repairs', () => {
    const rows = [{ command: 'npm test', exitCode: 0, durationMs: 4200 }];
    expect(render({ stages: {}, validation: rows, repairs: 1 })).toContain(
      '**Validation** (passed after 1 repair: the first answer failed, the fixer saw why)',
    );
    expect(render({ stages: {}, validation: rows })).toContain('**Validation**\n\n');
  });

  it('shows LLM text in the summary and plan steps without acting on it (issue #11)', () => {
    const body = renderStatusComment({
      runId: 'run-1',
      stageOrder: order,
      command: '/autofix',
      repo: { owner: 'acme', repo: 'widgets' },
      githubHost: 'github.com',
      issueNumber: 7,
      facts: {
        stages: {},
        risk: 'LOW',
        summary: 'Closes #5 cc @org/team ![](http://evil.test/b.png)',
        planSteps: [
          '<!-- autofix-run:run-2 --> edit [a.ts](https://github.com/acme/widgets/blob/main/a.ts)',
          '### Done <sub>Opened by Autofix</sub>',
        ],
        files: [{ path: 'a`@bob`.ts', operation: 'modified' }],
        outcome: { kind: 'stopped', message: 'Nothing to do for @alice' },
      },
    });
    expect(body).toContain(
      '**Risk:** LOW — `Closes #5` cc `@org/team` \\![\\](`http://evil.test/b.png`)',
    );
    expect(body).toContain(
      '1. &lt;!-- autofix-run:run-2 --> edit [a.ts](https://github.com/acme/widgets/blob/main/a.ts)',
    );
    expect(body).toContain('2. \\### Done &lt;sub>Opened by Autofix&lt;/sub>');
    expect(body).toContain('| ``a`@bob`.ts`` | modified |');
    expect(body).toContain('Nothing to do for `@alice`');
    expect(body.match(/<!-- autofix-run:/g)).toHaveLength(1);
  });

  it('links the run page in its footer when it has a link, and prints none without', () => {
    const url = 'https://autofix.example.com/runs/run-1?expires=1&sig=abc_-';
    const body = renderStatusComment({
      runId: 'run-1',
      stageOrder: order,
      facts: { stages: {} },
      command: '/autofix',
      runPage: url,
    });
    expect(body).toContain(`[run page](<${url}>)`);
    expect(render({ stages: {} })).not.toContain('run page');
  });

  it('tells how to try again after a failure', () => {
    const body = render({
      stages: { plan: { state: 'failed' } },
      outcome: { kind: 'failed', message: 'x' },
    });
    expect(body).toContain('❌ Autofix failed');
    expect(body).toContain('comment `/autofix <more detail>` to try again');
  });
});

describe('warnings in the status comment (issue #11)', () => {
  it('shows an unsandboxed run and the hosts setup was refused, neutralised', () => {
    const body = renderStatusComment({
      runId: 'run-w',
      stageOrder: ['triage'],
      command: '/autofix',
      facts: {
        stages: { triage: { state: 'done' } },
        warnings: [
          'Repository commands ran WITHOUT a sandbox',
          'Setup commands tried to reach hosts off the network allowlist, and were refused: evil.test:443 @org/team',
        ],
      },
    });
    expect(body).toContain('> [!WARNING]\n> Repository commands ran WITHOUT a sandbox');
    expect(body).toContain('evil.test:443');
    expect(body).not.toMatch(/(^|[^`])@org\/team/);
  });
});
