/**
 * The sections of the verdict's text (pure): the reproduction's evidence, the validation
 * commands, the scope, the run's facts. What the repository or the model wrote (commands, paths,
 * test names, amendment reasons, output) is shown, not acted on: code spans and fences, or
 * `text` (neutralised Markdown).
 */
import { cell, codeSpan, fence, formatDuration } from '../text/markdown.js';
import { tailOf } from '../text/keep-ends.js';
import { plainOutput } from '../text/terminal-text.js';
import {
  passedRun,
  plainPath,
  type ReproductionEvidence,
  type Verdict,
  type VerdictInput,
} from './decide-verdict.js';

const MAX_ROWS = 50;
const MAX_FILES = 50;
const MAX_AMENDMENTS = 20;
const MAX_SHOWN_CHARS = 300;
const EXCERPT_LINES = 40;
const EXCERPT_CHARS = 3_000;

export const plural = (n: number, one: string, many = `${one}s`): string =>
  `${n} ${n === 1 ? one : many}`;

export function short(text: string, max = MAX_SHOWN_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** An output excerpt in a fence: plain text (no escapes), its end (where failures are printed). */
export function excerpt(text: string, lines = EXCERPT_LINES, chars = EXCERPT_CHARS): string {
  // Only the end is shown: the rest is not cleaned (output can be megabytes).
  const end = text.length > chars * 4 ? text.slice(-chars * 4).replace(/^[^\n]*\n/, '') : text;
  return fence(tailOf(plainOutput(end), lines, chars) || '(no output)', 'text');
}

export function exitText(code: number | null): string {
  return code === null ? '—' : String(code);
}

export function reproductionSection(
  repro: ReproductionEvidence,
  verdict: Verdict,
  text: (s: string) => string,
): string {
  const lines = [`### Reproduction`, ''];
  const command = repro.command ? ` — ${codeSpan(short(repro.command))}` : '';
  const file = repro.file ? ` in ${codeSpan(short(repro.file))}` : '';
  lines.push(`**Test:** ${text(short(repro.test, 500))}${file}${command}`, '');
  lines.push('| commit | result | exit code |', '| --- | --- | --- |');
  lines.push(
    `| base | ${repro.base.exitCode === 0 ? '⚠️ passed (shows no bug)' : '❌ failed, as the issue describes'} | ${exitText(repro.base.exitCode)} |`,
  );
  const headTime =
    repro.head.durationMs === undefined ? '' : ` in ${formatDuration(repro.head.durationMs)}`;
  lines.push(
    `| head | ${repro.head.exitCode === 0 ? `✅ passed${headTime}` : `❌ still fails${headTime}`} | ${exitText(repro.head.exitCode)} |`,
  );
  if (verdict.reproduction === 'passed-on-base') {
    lines.push('', '_The test passed on the base commit too: it is not evidence of the fix._');
  }
  lines.push(
    '',
    '<details><summary>Base commit failure</summary>',
    '',
    excerpt(repro.base.excerpt),
  );
  lines.push('', '</details>');
  if (repro.head.excerpt) {
    lines.push('', '<details><summary>Head commit output</summary>', '');
    lines.push(excerpt(repro.head.excerpt), '', '</details>');
  }
  return lines.join('\n');
}

export function validationSection(input: VerdictInput, verdict: Verdict): string {
  if (input.validation.length === 0) {
    return '### Validation\n\n_No validation commands ran: nothing checked the change._';
  }
  const preexisting = new Set(verdict.preexisting);
  const rows = input.validation.slice(0, MAX_ROWS).map((r) => {
    const result = passedRun(r)
      ? '✅ passed'
      : preexisting.has(r)
        ? '⚠️ failed on the base commit too'
        : r.timed_out
          ? '⏱ timed out'
          : '❌ failed';
    return `| ${cell(codeSpan(short(r.command)))} | ${result} | ${exitText(r.exit_code)} | ${formatDuration(r.duration_ms)} |`;
  });
  const more =
    input.validation.length > MAX_ROWS
      ? `\n\n_… and ${input.validation.length - MAX_ROWS} more commands._`
      : '';
  return [
    '### Validation',
    '',
    '| command | result | exit code | duration |',
    '| --- | --- | --- | --- |',
    ...rows,
  ]
    .join('\n')
    .concat(more);
}

function fileList(paths: readonly string[]): string {
  const shown = paths.slice(0, MAX_FILES).map((p) => `- ${codeSpan(short(p))}`);
  if (paths.length > MAX_FILES) shown.push(`- … and ${paths.length - MAX_FILES} more`);
  return shown.join('\n');
}

export function scopeSection(
  input: VerdictInput,
  verdict: Verdict,
  text: (s: string) => string,
): string {
  const changed = new Set(input.changes.map((c) => plainPath(c.path))).size;
  const parts = ['### Scope'];
  if (input.planFiles === undefined) {
    parts.push(
      `${plural(changed, 'file')} changed; a re-run verifies the commit as it is, with no plan to compare them with.`,
    );
  } else if (verdict.outsidePlan.length === 0) {
    parts.push(
      `${plural(changed, 'file')} changed, all within the plan${verdict.amended.length > 0 ? ' (with its amendments)' : ''}.`,
    );
  } else {
    parts.push(
      `${plural(verdict.outsidePlan.length, 'file')} changed outside the plan's ${plural(input.planFiles?.length ?? 0, 'file')}, with no amendment explaining ${verdict.outsidePlan.length === 1 ? 'it' : 'them'}:`,
      fileList(verdict.outsidePlan),
    );
  }
  if (verdict.amended.length > 0) {
    const rows = verdict.amended
      .slice(0, MAX_AMENDMENTS)
      .map((a) => `- ${codeSpan(short(a.path))} — ${text(short(a.why, 500))}`);
    if (verdict.amended.length > MAX_AMENDMENTS) {
      rows.push(`- … and ${verdict.amended.length - MAX_AMENDMENTS} more`);
    }
    parts.push('Added to the plan while coding:', rows.join('\n'));
  }
  return parts.join('\n\n');
}

export function runSection(input: VerdictInput): string {
  const lines = ['### Run', ''];
  lines.push(
    input.sandbox === 'bwrap'
      ? '- **Sandbox:** bubblewrap (no network but the allowed hosts, only the worktree writable)'
      : '- **Sandbox:** ⚠️ none — the repository’s commands ran without a sandbox',
  );
  if (input.usage) {
    const cost =
      input.usage.costUsd === undefined ? '' : ` · cost ≈ $${input.usage.costUsd.toFixed(4)}`;
    lines.push(`- **Tokens:** ${input.usage.totalTokens.toLocaleString('en-US')}${cost}`);
  }
  if (input.rerun) {
    lines.push(
      `- **Re-run:** asked from the Checks UI; the commit was verified again as it is (no model asked)${
        input.rerun.reproduction
          ? `, its reproduction ${codeSpan(short(input.rerun.reproduction))} included`
          : ''
      }`,
    );
  }
  lines.push(`- **Run:** ${codeSpan(input.runId)}`);
  return lines.join('\n');
}
