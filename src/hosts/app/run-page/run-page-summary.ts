/**
 * The run page's top half (pure): the outcome (a failure's root cause first, a parking's reason),
 * each stage's timing, attempts, models, tokens and cost with the run's totals.
 */
import { ROUTES, STAGES, type StageName } from '../../../contracts.js';
import type { Run, RunUsage, StageRecord } from '../../../runs/run-record.js';
import { html, type SafeHtml } from '../html.js';
import { at, formatDuration, isWebUrl, plural, tokens, usd } from './run-page-format.js';

const PARK_REASONS: Record<string, string> = {
  'plan-approval': 'waiting for a maintainer to approve the plan',
  budget: 'waiting for more budget',
  'llm-unavailable': 'waiting for the model endpoint',
};

function pullRequestLink(run: Run): SafeHtml {
  const pr = run.outputs.pr?.pr;
  if (!pr) return html``;
  const label = `pull request #${pr.number}${pr.draft ? ' (draft)' : ''}`;
  return isWebUrl(pr.url) ? html`<a href="${pr.url}">${label}</a>` : html`${label}`;
}

function endedOutcome(run: Run, ending: NonNullable<Run['ending']>): SafeHtml {
  if (ending.outcome === 'failed') {
    const { stage, error, attempts } = ending.failure;
    return html`<section id="outcome" class="outcome failed">
      <h2>Failed in ${stage}</h2>
      <p id="root-cause">
        <strong><code>${error.code}</code></strong> ${error.message}
      </p>
      <p class="meta">After ${plural(attempts, 'attempt')}; ended ${at(ending.at)}.</p>
    </section>`;
  }
  if (ending.outcome === 'abandoned') {
    return html`<section id="outcome" class="outcome abandoned">
      <h2>Abandoned</h2>
      <p>${ending.reason}</p>
      <p class="meta">Ended ${at(ending.at)}.</p>
    </section>`;
  }
  if (ending.stop) {
    return html`<section id="outcome" class="outcome stopped">
      <h2>Stopped without changes</h2>
      <p>${ending.stop.reason}</p>
      <p class="meta">Ended ${at(ending.at)}.</p>
    </section>`;
  }
  return html`<section id="outcome" class="outcome succeeded">
    <h2>Succeeded</h2>
    <p>${run.outputs.pr?.pr ? html`Opened ${pullRequestLink(run)}.` : 'The run finished.'}</p>
    <p class="meta">Ended ${at(ending.at)}.</p>
  </section>`;
}

function parkedOutcome(parked: NonNullable<Run['parked']>): SafeHtml {
  const cap = parked.cap;
  return html`<section id="outcome" class="outcome parked">
    <h2>Paused: ${PARK_REASONS[parked.reason] ?? parked.reason}</h2>
    <p id="park-message">${parked.message}</p>
    <p class="meta">
      Parked ${at(parked.at)}; resumes at ${parked.resumeAt}; ends on its own
      ${at(parked.expiresAt)}.
      ${cap ? html`Cap: ${cap.scope}, ${cap.spent} of ${cap.limit} used.` : ''}
    </p>
  </section>`;
}

/** How the run stands: the first thing on the page. */
export function outcomeSection(run: Run): SafeHtml {
  if (run.ending) return endedOutcome(run, run.ending);
  if (run.parked) return parkedOutcome(run.parked);
  const running = STAGES.find((s) => run.stages[s]?.state === 'running');
  return html`<section id="outcome" class="outcome running">
    <h2>In progress</h2>
    <p>${running ? `Stage ${running} is running.` : 'Waiting for its next stage.'}</p>
  </section>`;
}

/** The route's stages in order, then any other stage the record holds. */
function stagesShown(run: Run): StageName[] {
  const route: readonly StageName[] = ROUTES[run.route] ?? [];
  return [...route, ...STAGES.filter((s) => !route.includes(s) && run.stages[s])];
}

function usageCells(usage: RunUsage | undefined): SafeHtml {
  if (!usage)
    return html`<td class="n">—</td>
      <td class="n">—</td>
      <td class="n">—</td>`;
  const unpriced = usage.unpricedCalls > 0 ? ` (+${usage.unpricedCalls} unpriced)` : '';
  return html`<td class="n">${tokens(usage.promptTokens)}</td>
    <td class="n">${tokens(usage.completionTokens)}</td>
    <td class="n">${usd(usage.costUsd)}${unpriced}</td>`;
}

function stageRow(stage: StageName, record: StageRecord | undefined): SafeHtml {
  if (!record) {
    return html`<tr>
      <td>${stage}</td>
      <td>not started</td>
      <td>—</td>
      <td class="n">—</td>
      <td class="n">—</td>
      <td>—</td>
      ${usageCells(undefined)}
    </tr>`;
  }
  const time = record.durationMs === undefined ? '—' : formatDuration(record.durationMs);
  return html`<tr>
    <td>${stage}</td>
    <td>${record.state}</td>
    <td>${at(record.startedAt)}</td>
    <td class="n">${time}</td>
    <td class="n">${record.attempts}</td>
    <td>${(record.models ?? []).join(', ') || '—'}</td>
    ${usageCells(record.usage)}
  </tr>`;
}

/** Each stage, then the run's totals. */
export function stagesSection(run: Run): SafeHtml {
  const shown = stagesShown(run);
  const records = shown.map((s) => run.stages[s]).filter((r): r is StageRecord => Boolean(r));
  const duration = records.reduce((sum, r) => sum + (r.durationMs ?? 0), 0);
  const attempts = records.reduce((sum, r) => sum + r.attempts, 0);
  return html`<section id="stages">
    <h2>Stages</h2>
    <table>
      <tr>
        <th>Stage</th>
        <th>State</th>
        <th>Started</th>
        <th>Time</th>
        <th>Attempts</th>
        <th>Model</th>
        <th>Prompt tokens</th>
        <th>Completion tokens</th>
        <th>Cost</th>
      </tr>
      ${shown.map((stage) => stageRow(stage, run.stages[stage]))}
      <tr class="total" id="totals">
        <td>total</td>
        <td></td>
        <td>${at(run.acceptedAt)}</td>
        <td class="n">${formatDuration(duration)}</td>
        <td class="n">${attempts}</td>
        <td></td>
        ${usageCells(run.usage)}
      </tr>
    </table>
  </section>`;
}
