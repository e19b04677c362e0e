/**
 * What the run showed (pure): the reproduction's fail→pass, each validation command with the tail
 * of its output, the diff (cropped, with a note), and what the code agent did with its tools.
 * Outputs are tails already (CodeSummary); the page crops them again to a fixed size.
 */
import type { CommandResult } from '../../../contracts.js';
import type { Run } from '../../../runs/run-record.js';
import { html, type SafeHtml } from '../html.js';
import { cropHead, cropTail, formatDuration, plural } from './run-page-format.js';

/** Characters of one command's output shown (its end: runners print failures last). */
export const MAX_OUTPUT_CHARS = 6_000;
/** Characters of the diff shown (its start), and of the reproduction's base failure. */
export const MAX_DIFF_CHARS = 60_000;
const MAX_FAILURE_CHARS = 4_000;
/** Tool calls listed; the run's artifacts keep them all. */
const MAX_STEPS = 200;

/** The end of an output, saying how much was cut before it. */
function outputTail(text: string, max: number): SafeHtml {
  const { shown, cut } = cropTail(text, max);
  const note = cut > 0 ? `[… ${cut.toLocaleString('en-US')} earlier characters cut …]\n` : '';
  return html`<pre>${note}${shown}</pre>`;
}

function verdict(r: Pick<CommandResult, 'exit_code' | 'timed_out'>): SafeHtml {
  if (r.timed_out) return html`<span class="fail">timed out</span>`;
  return r.exit_code === 0
    ? html`<span class="pass">passed</span>`
    : html`<span class="fail">failed (exit ${r.exit_code ?? '—'})</span>`;
}

function validationOf(run: Run): CommandResult[] | undefined {
  return run.outputs.code?.code.validation ?? run.outputs.verify?.validation;
}

export function reproductionSection(run: Run): SafeHtml {
  const r = run.outputs.reproduce;
  if (!r) return html``;
  if (r.status !== 'reproduced') {
    return html`<section id="reproduction">
      <h2>Reproduction</h2>
      <p>None (${r.status}): ${r.reason}</p>
    </section>`;
  }
  const after = validationOf(run)?.find((v) => v.command === r.command);
  return html`<section id="reproduction">
    <h2>Reproduction</h2>
    <p>
      The test <code>${r.test_name}</code> in <code>${r.path}</code>, run by
      <code>${r.command}</code>.
    </p>
    <p id="repro-base">
      On the base commit: <span class="fail">failed (exit ${r.base_exit_code ?? '—'})</span>
    </p>
    ${outputTail(r.base_failure, MAX_FAILURE_CHARS)}
    <p id="repro-fix">
      With the fix:
      ${after ? html`${verdict(after)} in ${formatDuration(after.duration_ms)}` : 'not run'}
    </p>
  </section>`;
}

function commandBlock(r: CommandResult, preexisting: readonly string[]): SafeHtml {
  const text = [r.stdout, r.stderr].filter((s) => s.trim() !== '').join('\n');
  return html`<div class="command">
    <h3><code>${r.command}</code></h3>
    <p>
      ${verdict(r)} in
      ${formatDuration(r.duration_ms)}${r.sandboxed === false ? ', not sandboxed' : ''}
      ${preexisting.includes(r.command) ? html` <em>(already failed on the base commit)</em>` : ''}
    </p>
    ${text ? outputTail(text, MAX_OUTPUT_CHARS) : html`<p class="note">No output.</p>`}
  </div>`;
}

export function validationSection(run: Run): SafeHtml {
  const results = validationOf(run);
  if (!results) return html``;
  const summary = run.outputs.code?.code;
  return html`<section id="validation">
    <h2>Validation</h2>
    ${summary && summary.repairs > 0 ? html`<p>${plural(summary.repairs, 'repair round')} after the first answer.</p>` : ''}
    ${results.length === 0 ? html`<p class="note">No validation commands configured.</p>` : ''}
    ${results.map((r) => commandBlock(r, summary?.preexisting ?? []))}
  </section>`;
}

/**
 * One line of the diff, coloured by kind. Its line break is interpolated as text by the caller:
 * Prettier's formatting of `html` templates turns a line break written inside one into a space.
 */
function diffLine(line: string): SafeHtml {
  if (line.startsWith('+') && !line.startsWith('+++'))
    return html`<span class="add">${line}</span>`;
  if (line.startsWith('-') && !line.startsWith('---'))
    return html`<span class="del">${line}</span>`;
  if (line.startsWith('@@')) return html`<span class="hunk">${line}</span>`;
  return html`${line}`;
}

export function diffSection(run: Run): SafeHtml {
  const commit = run.outputs.code?.commit;
  if (!commit) return html``;
  const { shown, cut } = cropHead(commit.diff, MAX_DIFF_CHARS);
  return html`<section id="diff">
    <h2>Diff</h2>
    <p class="meta">
      ${plural(commit.files_changed.length, 'file')} changed; commit <code>${commit.sha}</code> on
      <code>${commit.branch}</code>.
    </p>
    <pre>${shown.split('\n').map((line) => [diffLine(line), '\n'])}</pre>
    ${
      cut > 0
        ? html`<p class="note" id="diff-cut">
            The diff is cropped: ${cut.toLocaleString('en-US')} more characters are not shown; the
            commit holds the whole change.
          </p>`
        : ''
    }
  </section>`;
}

export function transcriptSection(run: Run): SafeHtml {
  const exploration = run.outputs.code?.code.exploration;
  if (!exploration || exploration.steps.length === 0) return html``;
  const steps = exploration.steps.slice(0, MAX_STEPS);
  const more = exploration.steps.length - steps.length;
  return html`<section id="transcript">
    <h2>What the code agent did</h2>
    <ol>
      ${steps.map(
        (s) =>
          html`<li>
            <code>${s.tool}</code> ${s.round > 0 ? `(repair ${s.round}) ` : ''}${s.summary}
            ${s.error ? html`<span class="fail">✗</span>` : ''}
          </li>`,
      )}
    </ol>
    ${more > 0 ? html`<p class="note">…and ${more} more tool calls.</p>` : ''}
    <p class="meta">
      ${plural(exploration.steps.length, 'tool call')}; ${exploration.ends.join('; ')}.
    </p>
  </section>`;
}
