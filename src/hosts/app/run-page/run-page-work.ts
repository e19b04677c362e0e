/**
 * What the run decided (pure): the ranked files with the ranking's reasons, triage's verdict, the
 * plan (steps, files, validation commands).
 */
import type { Run } from '../../../runs/run-record.js';
import { html, type SafeHtml } from '../html.js';

const none = (id: string, title: string, why: string): SafeHtml =>
  html`<section id="${id}">
    <h2>${title}</h2>
    <p class="note">${why}</p>
  </section>`;

export function rankedSection(run: Run): SafeHtml {
  const triage = run.outputs.triage;
  const ranked = triage?.ranked ?? [];
  if (ranked.length === 0) {
    const named = triage?.affected_files ?? [];
    if (named.length === 0) return none('ranked', 'Ranked files', 'No ranking in this run.');
    return html`<section id="ranked">
      <h2>Ranked files</h2>
      <p>Triage named: ${named.map((f, i) => html`${i > 0 ? ', ' : ''}<code>${f}</code>`)}</p>
    </section>`;
  }
  return html`<section id="ranked">
    <h2>Ranked files</h2>
    <p class="meta">The files the ranking put first for this issue, and why.</p>
    <table>
      <tr>
        <th>#</th>
        <th>File</th>
        <th>Why</th>
      </tr>
      ${ranked.map(
        (file, i) =>
          html`<tr>
            <td class="n">${i + 1}</td>
            <td><code>${file.path}</code></td>
            <td>${file.reasons.join('; ')}</td>
          </tr>`,
      )}
    </table>
  </section>`;
}

export function triageSection(run: Run): SafeHtml {
  const triage = run.outputs.triage;
  if (!triage) return html``;
  return html`<section id="triage">
    <h2>Triage</h2>
    <p><strong>${triage.risk}</strong> risk (${triage.classification}): ${triage.summary}</p>
  </section>`;
}

export function planSection(run: Run): SafeHtml {
  const plan = run.outputs.plan;
  if (!plan) return none('plan', 'Plan', 'No plan in this run.');
  const subject = plan.commit_subject ? `: ${plan.commit_subject}` : '';
  return html`<section id="plan">
    <h2>Plan</h2>
    <p>
      <code>${plan.commit_type}(${plan.scope})${subject}</code> on branch
      <code>${plan.branch_name}</code>
    </p>
    <h3>Steps</h3>
    <ol id="plan-steps">
      ${plan.plan_steps.map((step) => html`<li>${step.description}</li>`)}
    </ol>
    <h3>Files</h3>
    <table id="plan-files">
      <tr>
        <th>File</th>
        <th>Operation</th>
        <th>Lines</th>
      </tr>
      ${plan.file_changes.map(
        (f) =>
          html`<tr>
            <td><code>${f.path}</code></td>
            <td>${f.operation}</td>
            <td>${f.line_range ? `${f.line_range[0]}–${f.line_range[1]}` : '—'}</td>
          </tr>`,
      )}
    </table>
    <h3>Validation commands</h3>
    ${
      plan.validation_commands.length === 0
        ? html`<p class="note">None.</p>`
        : html`<ul id="plan-commands">
            ${plan.validation_commands.map((c) => html`<li><code>${c}</code></li>`)}
          </ul>`
    }
  </section>`;
}
