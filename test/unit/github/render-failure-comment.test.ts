import { createRedactor } from '../../../src/artifacts/redact.js';
import { ERROR_CODES } from '../../../src/errors.js';
import { nextStep, renderFailureComment } from '../../../src/github/render-failure-comment.js';

describe('renderFailureComment', () => {
  const redact = createRedactor(['super-secret-llm-key']);

  it('names the stage, the code, the reason and the next step, with a redacted excerpt', () => {
    const body = renderFailureComment({
      runId: 'run-9',
      stage: 'code',
      error: {
        code: 'VALIDATION_FAILED',
        message: 'npm test exited 1',
        details: {
          stderr: 'auth super-secret-llm-key failed; token ghs_abcdefghijklmnopqrstuvwxyz12',
        },
        recoverable: false,
      },
      attempts: 1,
      command: '/autofix',
      redact,
    });
    expect(body).toContain('failed during the **code** stage');
    expect(body).not.toContain('attempts');
    expect(body).toContain('**Error:** `VALIDATION_FAILED` — npm test exited 1');
    expect(body).toContain(
      "**What you can do:** The change did not pass the repository's `validate` commands",
    );
    expect(body).toContain('<details><summary>Details (secrets redacted)</summary>');
    expect(body).not.toContain('super-secret-llm-key');
    expect(body).not.toContain('ghs_abcdefghijklmnopqrstuvwxyz12');
    expect(body).toContain('****ey');
  });

  it('keeps a multi-line message (config problems) below the headline', () => {
    const body = renderFailureComment({
      runId: 'run-9',
      stage: 'triage',
      error: {
        code: 'CONFIG_INVALID',
        message: 'bad config:\n  - `validate`: must be a list',
        recoverable: false,
      },
      attempts: 3,
      command: '/fixit',
      redact,
    });
    expect(body).toContain('stage after 3 attempts');
    expect(body).toContain('- `validate`: must be a list');
    expect(body).toContain('then comment `/fixit`');
  });

  it('shows LLM text quoted in the message without acting on it (issue #11)', () => {
    const body = renderFailureComment({
      runId: 'run-9',
      stage: 'plan',
      repo: { owner: 'acme', repo: 'widgets' },
      issueNumber: 7,
      error: {
        code: 'LLM_OUTPUT_INVALID',
        message:
          'the plan is unusable: "fixes #5 @org/team"\n' +
          '<details><summary>x</summary>\n\n![](http://evil.test/b.png) super-secret-llm-key',
        recoverable: false,
      },
      attempts: 1,
      command: '/autofix',
      redact,
    });
    expect(body).toContain('— the plan is unusable: "`fixes #5` `@org/team`"');
    expect(body).toContain('&lt;details>&lt;summary>x&lt;/summary>');
    expect(body).toContain('\\![\\](`http://evil.test/b.png`) ****ey');
    expect(body).not.toContain('super-secret-llm-key');
  });

  it('has a next step for every error code', () => {
    for (const code of ERROR_CODES) expect(nextStep(code, '/autofix')).toMatch(/\/autofix|by hand/);
  });
});
