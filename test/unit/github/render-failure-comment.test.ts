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

describe('renderFailureComment with a root cause (issue #14)', () => {
  const redact = createRedactor(['super-secret-llm-key']);
  const render = (code: 'VALIDATION_FAILED' | 'SETUP_FAILED', details: unknown): string =>
    renderFailureComment({
      runId: 'run-7',
      stage: 'code',
      error: {
        code,
        message: 'headline\nplain text the comment must not repeat',
        details,
        recoverable: false,
      },
      attempts: 1,
      command: '/autofix',
      redact,
    });

  it('leads with the failing command, fences the output (redacted), then what came after and the log', () => {
    const body = render('VALIDATION_FAILED', {
      root_cause: {
        phase: 'validate',
        command: 'npm test',
        exit_code: 1,
        timed_out: false,
        new_failures: ['add › sums'],
        tail: '**not bold** <img src=x>\nAssertionError: expected 5 (key super-secret-llm-key)',
        log: 'runs/run-7/query-3-build.txt',
        round: 0,
        network: false,
      },
      after: ['repair 1: the answer was refused (INVALID_DIFF): @someone look'],
      repairs: 1,
    });
    const order = [
      '**Error:** `VALIDATION_FAILED` — headline',
      '**Root cause:** the validation command `npm test` exited with 1.',
      'Failing with the change and passing on the base commit: `add › sums`.',
      '```text\n**not bold** <img src=x>\nAssertionError: expected 5 (key ****ey)\n```',
      '**After that:**\n- repair 1: the answer was refused (INVALID_DIFF):',
      'Full log on the worker: `runs/run-7/query-3-build.txt`',
      '**What you can do:**',
    ].map((part) => body.indexOf(part));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(body).not.toContain('super-secret-llm-key');
    expect(body).not.toContain('plain text the comment must not repeat');
    expect(body).toContain('`@someone` look'); // a mention in what came after is not live
    expect(body).not.toContain('<details>');
  });

  it('says what to change for a failing setup', () => {
    const body = render('SETUP_FAILED', {
      root_cause: {
        phase: 'setup',
        command: 'npm ci',
        exit_code: 1,
        timed_out: false,
        new_failures: null,
        tail: 'npm error code EUSAGE',
        round: 0,
      },
      after: [],
    });
    expect(body).toContain('**Root cause:** the setup command `npm ci` exited with 1.');
    expect(body).toContain('npm error code EUSAGE');
    expect(body).toContain('Change `setup:` in `.github/autofix.yml`');
  });
});
