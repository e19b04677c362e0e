import { createRedactor } from '../../../../../src/artifacts/redact.js';
import { renderRunPage } from '../../../../../src/hosts/app/run-page/render-run-page.js';
import {
  MAX_DIFF_CHARS,
  MAX_OUTPUT_CHARS,
} from '../../../../../src/hosts/app/run-page/run-page-evidence.js';
import type { Run } from '../../../../../src/runs/run-record.js';
import { codeOutput, failedRun, parkedRun, succeededRun } from '../../../../helpers/run-records.js';

const WEBHOOK_SECRET = 'whsec-run-page-0123456789';
const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const redact = createRedactor([WEBHOOK_SECRET]);

/** The page as text, tags removed: what a reader sees (roughly). */
const visible = (page: string): string =>
  page
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&#96;/g, '`')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe('the run page (renderRunPage)', () => {
  it('shows each stage with time, attempts, model, tokens and cost, and the totals', () => {
    const page = renderRunPage(succeededRun(), redact);
    const text = visible(page);
    for (const stage of ['triage', 'plan', 'reproduce', 'code', 'pr'])
      expect(text).toContain(` ${stage} done `);
    expect(text).toContain('9,000'); // the code stage's prompt tokens
    expect(text).toContain('$0.0091');
    expect(text).toMatch(/total [^a-z]* UTC 40\.0 s 6 15,900 3,150 \$0\.0154/);
    expect(text).toContain('gpt-4.1-mini');
  });

  it('shows the outcome, ranked files with reasons, plan, reproduction, validation, diff and transcript', () => {
    const text = visible(renderRunPage(succeededRun(), redact));
    expect(text).toContain('Succeeded Opened pull request #8');
    expect(text).toContain('src/slug.js defines `slug`; named in the title');
    expect(text).toContain('Use a global regular expression in slug()');
    expect(text).toMatch(/Validation commands npm test/);
    expect(text).toContain("On the base commit: failed (exit 1) AssertionError: expected 'a-b c'");
    expect(text).toContain('With the fix: passed in 1.2 s');
    expect(text).toContain('npm test passed in 1.2 s');
    expect(text).toContain('# pass 2');
    expect(text).toContain("+ return text.toLowerCase().replace(/\\s+/g, '-');");
    expect(text).toContain('read_file read src/slug.js (12 lines)');
    expect(text).toContain('run_tests (repair 1) ran node --test: 1 failing');
  });

  it('leads a failure with its root cause: the stage, the error code and its message', () => {
    const page = renderRunPage(failedRun(), redact);
    const text = visible(page);
    expect(text).toContain('Failed in code VALIDATION_FAILED `npm test` failed after 2 repairs');
    expect(page.indexOf('id="root-cause"')).toBeLessThan(page.indexOf('id="stages"'));
    expect(text).toContain(' code failed ');
    expect(text).toContain('npm test failed (exit 1)');
    expect(text).toContain("AssertionError: 'a-b c' !== 'a-b-c'");
  });

  it('says why a parked run waits, and for what', () => {
    const text = visible(renderRunPage(parkedRun(), redact));
    expect(text).toContain('Paused: waiting for more budget');
    expect(text).toContain('paused at $1.94 of $2.00 after reproduce');
    expect(text).toContain('resumes at code');
    expect(text).toContain('Cap: run, 1.94 of 2 used.');
    expect(text).toContain(' code not started ');
  });

  it('shows no secret: tokens and registered secrets are masked in every field', () => {
    const run = succeededRun();
    const leak = `token ${TOKEN} and secret ${WEBHOOK_SECRET}`;
    run.issue.title = leak;
    run.outputs.plan!.plan_steps[0]!.description = leak;
    run.outputs.code = codeOutput(
      [{ ...run.outputs.code!.code.validation[0]!, stdout: leak, stderr: leak }],
      `+const t = '${TOKEN}';\n+const s = '${Buffer.from(WEBHOOK_SECRET).toString('base64')}';`,
    );
    run.ending = {
      outcome: 'failed',
      failure: {
        stage: 'code',
        attempts: 1,
        error: { code: 'INTERNAL', message: leak, recoverable: true },
      },
      at: run.updatedAt,
    };
    const page = renderRunPage(run, redact);
    expect(page).not.toContain(TOKEN);
    expect(page).not.toContain(TOKEN.slice(4, 30));
    expect(page).not.toContain(WEBHOOK_SECRET);
    expect(page).not.toContain(Buffer.from(WEBHOOK_SECRET).toString('base64'));
    expect(page).toContain('****89');
  });

  it('escapes HTML and scripts from the issue, the plan, outputs and the diff', () => {
    const run = succeededRun();
    const inject = '<script>alert(1)</script><img src=x onerror=alert(2)>"\'';
    run.issue.title = inject;
    run.outputs.plan!.plan_steps[0]!.description = inject;
    run.outputs.triage!.ranked![0]!.reasons = [inject];
    run.outputs.code = codeOutput(
      [{ ...run.outputs.code!.code.validation[0]!, command: inject, stdout: inject }],
      `+${inject}\n-</pre>${inject}`,
    );
    run.outputs.pr!.pr!.url = 'javascript:alert(3)';
    const page = renderRunPage(run, redact);
    expect(page).not.toMatch(/<script|<img|<[^>]*onerror=|href="javascript:/i);
    expect(page.match(/<\/pre>/g)?.length).toBe(page.match(/<pre>/g)?.length);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(visible(page)).toContain('pull request #8');
  });

  it('crops the diff with a note, and long outputs to their end', () => {
    const run: Run = succeededRun();
    const long = Array.from({ length: 4000 }, (_, i) => `+line ${i} ${'x'.repeat(30)}`).join('\n');
    const output = Array.from({ length: 2000 }, (_, i) => `log line ${i}`).join('\n');
    run.outputs.code = codeOutput(
      [{ ...run.outputs.code!.code.validation[0]!, stdout: `${output}\nFINAL LINE` }],
      long,
    );
    const page = renderRunPage(run, redact);
    const text = visible(page);
    expect(text).toContain('+line 0 ');
    expect(page).toMatch(/\+line 0 x+<\/span>\n<span class="add">\+line 1 /);
    expect(text).not.toContain('+line 3999 ');
    expect(text).toMatch(/The diff is cropped: [\d,]+ more characters are not shown/);
    expect(text).toContain('FINAL LINE');
    expect(text).not.toContain('log line 0 ');
    expect(text).toMatch(/\[… [\d,]+ earlier characters cut …\]/);
    expect(page.length).toBeLessThan(MAX_DIFF_CHARS * 2 + MAX_OUTPUT_CHARS * 4 + 40_000);
  });
});
