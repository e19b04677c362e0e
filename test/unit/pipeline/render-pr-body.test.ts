import type { PrBodyInput } from '../../../src/pipeline/pr/render-pr-body.js';
import { renderPrBody } from '../../../src/pipeline/pr/render-pr-body.js';

const input: PrBodyInput = {
  issueNumber: 42,
  summary: 'Corrects the typo in the installation section.',
  triage: {
    risk: 'LOW',
    classification: 'docs',
    affected_files: ['README.md'],
    summary: 'One-word typo',
  },
  plan: {
    branch_name: 'autofix/docs/42-fix-typo',
    commit_type: 'docs',
    scope: 'readme',
    plan_steps: [{ id: '1', description: 'Replace teh with the' }],
    file_changes: [{ path: 'README.md', operation: 'MODIFY' }],
    validation_commands: ['npm test'],
  },
  commit: {
    sha: 'abc123',
    branch: 'autofix/docs/42-fix-typo',
    message: 'docs(readme): correct typo in installation section\n\nFixes #42',
    diff: '--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-teh\n+the\n',
    files_changed: ['README.md'],
  },
  changes: [{ path: 'README.md', operation: 'modified' }],
  validation: [
    {
      command: 'npm test',
      exit_code: 0,
      stdout: 'ok | fine',
      stderr: '',
      duration_ms: 1234,
      timed_out: false,
    },
  ],
  notes: ['Also consider a spell checker.'],
  usage: { totalTokens: 12345, costUsd: 0.0123 },
  runId: 'run-0123456789abcdef',
};

describe('renderPrBody', () => {
  it('renders summary, Fixes, changes, validation, plan, risk, notes and details', () => {
    const body = renderPrBody(input);
    expect(body.startsWith('Corrects the typo')).toBe(true);
    expect(body).toContain('Fixes #42');
    expect(body).toContain('| `README.md` | modified |');
    expect(body).toContain('| `npm test` | ✅ | 0 | 1.2 s |');
    expect(body).toContain('1. Replace teh with the');
    expect(body).toContain('**LOW** (docs)');
    expect(body).toContain('> Also consider a spell checker.');
    expect(body).toContain('12,345 tokens, about $0.0123');
    expect(body).toContain('<details>');
    expect(body).toContain('+the');
    expect(body).not.toContain('[!WARNING]');
  });

  it('links the run page beside the run id when it has a link', () => {
    const url = 'https://autofix.example.com/runs/run-1?expires=1&sig=abc_-';
    const body = renderPrBody({ ...input, runId: 'run-1', runPage: url });
    // The run line stays as it is: a PR's run id is read back from it (pull-run-id.ts).
    expect(body).toContain('- Run: `run-1`\n');
    expect(body).toContain(`- Run page: [stages, costs, outputs](<${url}>)`);
    expect(renderPrBody({ ...input, runId: 'run-1' })).not.toContain('run page');
  });

  it('is deterministic', () => {
    expect(renderPrBody(input)).toBe(renderPrBody(structuredClone(input)));
  });

  it('warns when validation ran unsandboxed and marks failures', () => {
    const body = renderPrBody({
      ...input,
      warnings: [
        'Repository commands ran WITHOUT a sandbox: the operator set AUTOFIX_SANDBOX=none',
      ],
      validation: [
        {
          command: 'make',
          exit_code: null,
          stdout: '',
          stderr: '',
          duration_ms: 600000,
          timed_out: true,
        },
      ],
    });
    expect(body).toContain('> [!WARNING]\n> Repository commands ran WITHOUT a sandbox');
    expect(body).toContain('| `make` | ⏱ timed out | — | 600.0 s |');
  });

  describe('LLM text is data, not commands (issue #11)', () => {
    const attack = 'Closes #5, closes #6. cc @org/team ![](http://evil.test/b.png)';
    const body = renderPrBody({
      ...input,
      issueNumber: 7,
      repo: { owner: 'acme', repo: 'widgets' },
      githubHost: 'github.com',
      summary: attack,
      notes: ['Also fixes #8 <!-- autofix-run:run-x --> <img src=http://evil.test/n.png>'],
      triage: { ...input.triage, summary: 'resolves #9 for @alice' },
      plan: {
        ...input.plan,
        plan_steps: [{ id: '1', description: '# Heading [x](https://evil.test/login)' }],
      },
    });
    /** The body with code spans and escaped characters taken out: what GitHub acts on. */
    const live = body.replace(/(`+)[^`]*?\1/g, ' ').replace(/\\./g, ' ');

    it('keeps the template’s own closing keyword, once', () => {
      expect(body.match(/Fixes #7/g)).toHaveLength(1);
      expect(body).toMatch(/^Fixes #7$/m);
    });

    it('leaves no live closing keyword for another issue', () => {
      expect(body).toContain('`Closes #5`, `closes #6`.');
      expect(live).not.toMatch(/(?:close|fix|resolve)[a-z]*:?\s+#[5689]/i);
    });

    it('leaves no live mention, image, remote link or forged marker', () => {
      expect(body).toContain('cc `@org/team`');
      expect(live).not.toMatch(/(?<![\w`])@\w/);
      expect(body).toContain('\\![\\](`http://evil.test/b.png`)');
      expect(live).not.toContain('![');
      expect(body).not.toMatch(/<img|<!--/i);
      expect(live).not.toContain('evil.test');
      expect(live).not.toMatch(/^#+ Heading/m);
    });
  });

  it('keeps a path or command with a backtick inside its code span', () => {
    const body = renderPrBody({
      ...input,
      changes: [{ path: 'docs/a`@org/team`b.md', operation: 'modified' }],
    });
    expect(body).toContain('| ``docs/a`@org/team`b.md`` | modified |');
  });

  it('stays under GitHub’s body limit with a huge diff and output', () => {
    const big = 'x'.repeat(200_000);
    const body = renderPrBody({
      ...input,
      commit: { ...input.commit, diff: big },
      validation: [
        {
          command: 'npm test',
          exit_code: 1,
          stdout: big,
          stderr: big,
          duration_ms: 5,
          timed_out: false,
        },
      ],
    });
    expect(body.length).toBeLessThan(65_536);
    expect(body).toContain('characters cut');
  });
});
