/**
 * The status page's "PR outcomes, last 30 days" (issue #36): per repository, the PRs this app
 * opened that were decided (merged or closed) in the window, by what they are now — merged,
 * closed unmerged, or merged and then reverted — and the merge rate, merged ÷ decided: a reverted
 * PR counts as decided, not merged (its change did not stay). Without the dashboard password the
 * page names no repository: one row sums them all.
 */
import { mergeRate, type RepoOutcomes } from '../../runs/pr-outcomes.js';
import { html, type SafeHtml } from './html.js';

export const OUTCOME_WINDOW_DAYS = 30;
export const OUTCOME_WINDOW_MS = OUTCOME_WINDOW_DAYS * 24 * 3600_000;

const percent = (rate: number | undefined): string =>
  rate === undefined ? '—' : `${Math.round(rate * 100)} %`;

function row(label: string, o: RepoOutcomes): SafeHtml {
  return html`<tr>
    <td>${label}</td>
    <td>${o.merged}</td>
    <td>${o.closed}</td>
    <td>${o.reverted}</td>
    <td>${percent(mergeRate(o))}</td>
  </tr>`;
}

function total(rows: readonly RepoOutcomes[]): RepoOutcomes {
  const sum = (key: 'merged' | 'closed' | 'reverted'): number =>
    rows.reduce((n, r) => n + r[key], 0);
  return { repo: '', merged: sum('merged'), closed: sum('closed'), reverted: sum('reverted') };
}

export function renderOutcomes(
  rows: readonly RepoOutcomes[] | undefined,
  identifying: boolean,
): SafeHtml {
  if (!rows) return html`<p id="outcomes">PR outcomes: unavailable (Redis did not answer).</p>`;
  if (rows.length === 0)
    return html`<p id="outcomes">
      No pull request of this app was merged or closed in the last ${OUTCOME_WINDOW_DAYS} days.
    </p>`;
  const sorted = [...rows].sort((a, b) => a.repo.localeCompare(b.repo));
  return html`<table id="outcomes">
      <tr>
        <th>Repository</th>
        <th>Merged</th>
        <th>Closed unmerged</th>
        <th>Reverted</th>
        <th>Merge rate</th>
      </tr>
      ${
        identifying
          ? sorted.map((r) => row(r.repo, r))
          : row(`All ${rows.length} repositories`, total(rows))
      }
    </table>
    <p>
      Merge rate = merged ÷ decided (merged, closed unmerged or reverted); a PR counts in the window
      of the day it was merged or closed.
      ${identifying ? '' : 'Repositories are shown with the dashboard password (ADMIN_PASSWORD).'}
    </p>`;
}
