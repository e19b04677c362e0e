/**
 * The one status comment per run (pure): stage table, risk, plan, files, validation, PR link,
 * tokens and cost. Edited in place as each stage finishes, so maintainers watch one comment.
 */
import { cell, codeSpan, formatDuration, runMarker } from '../text/markdown.js';
import { neutralizeMarkdown, type NeutralizeOptions } from '../text/neutralize-markdown.js';
import type { RepoCoords, StageStatus, StatusFacts, ValidationRow } from './types.js';

export interface StatusCommentInput {
  runId: string;
  /** Stage names in pipeline order. */
  stageOrder: readonly string[];
  facts: StatusFacts;
  /** The slash command, for the hints (`/autofix`). */
  command: string;
  /** The run page's signed link (stages, costs, outputs, the diff), for the footer. */
  runPage?: string;
  /**
   * The repository, its GitHub host and the run's issue: links into the repository and closing
   * keywords for this issue stay live in LLM text. Without them none do.
   */
  repo?: RepoCoords;
  githubHost?: string;
  issueNumber?: number;
}

const STATE_ICON: Record<StageStatus['state'], string> = {
  pending: '⬜ pending',
  queued: '🕓 queued',
  running: '⏳ running',
  done: '✅ done',
  failed: '❌ failed',
  skipped: '⏭ skipped',
  waiting: '⏸ waiting',
};

function headline(facts: StatusFacts): string {
  switch (facts.outcome?.kind) {
    case 'success':
      return facts.successHeadline
        ? `### ${facts.successHeadline}`
        : '### 🚀 Autofix opened a pull request';
    case 'stopped':
      return '### ⏹ Autofix stopped without changes';
    case 'failed':
      return '### ❌ Autofix failed';
    case 'parked':
      return '### ⏸ Autofix is paused';
    default:
      return '### 🤖 Autofix is working on this';
  }
}

function stageTable(order: readonly string[], facts: StatusFacts): string {
  const rows = order.map((stage) => {
    const status = facts.stages[stage] ?? { state: 'pending' };
    const time = status.durationMs === undefined ? '' : formatDuration(status.durationMs);
    return `| ${stage} | ${STATE_ICON[status.state]} | ${time} |`;
  });
  return ['| stage | status | time |', '| --- | --- | --- |', ...rows].join('\n');
}

function validationTable(rows: ValidationRow[]): string {
  if (rows.length === 0) return '_No validation commands configured._';
  const lines = rows.map((r) => {
    const result = r.timedOut ? '⏱ timed out' : r.exitCode === 0 ? '✅' : '❌';
    return `| ${cell(codeSpan(r.command))} | ${result} | ${r.exitCode ?? '—'} | ${formatDuration(r.durationMs)} |`;
  });
  return [
    '| command | result | exit code | duration |',
    '| --- | --- | --- | --- |',
    ...lines,
  ].join('\n');
}

function usageLine(usage: NonNullable<StatusFacts['usage']>): string {
  const tokens = usage.totalTokens.toLocaleString('en-US');
  const cost = usage.costUsd === undefined ? '' : ` · cost ≈ $${usage.costUsd.toFixed(4)}`;
  return `${tokens} tokens${cost}`;
}

export function renderStatusComment(input: StatusCommentInput): string {
  const { facts } = input;
  // Summary, plan steps and a stop reason can carry LLM text: shown, never acted on.
  const options: NeutralizeOptions = {
    inline: true,
    ...(input.repo ? { owner: input.repo.owner, repo: input.repo.repo } : {}),
    ...(input.githubHost ? { githubHost: input.githubHost } : {}),
    ...(input.issueNumber === undefined ? {} : { issueNumber: input.issueNumber }),
  };
  const text = (s: string): string => cell(neutralizeMarkdown(s, options));
  const parts: string[] = [runMarker(input.runId), headline(facts)];
  if (facts.outcome?.message) parts.push(text(facts.outcome.message));
  // Our words around check names and a commit from the repository's CI: neutralised too.
  if (facts.trigger) parts.push(`**Trigger:** ${text(facts.trigger)}`);
  parts.push(stageTable(input.stageOrder, facts));
  if (facts.risk) {
    parts.push(`**Risk:** ${facts.risk}${facts.summary ? ` — ${text(facts.summary)}` : ''}`);
  } else if (facts.summary) {
    parts.push(`**Summary:** ${text(facts.summary)}`);
  }
  if (facts.planSteps && facts.planSteps.length > 0) {
    parts.push('**Plan**\n\n' + facts.planSteps.map((s, i) => `${i + 1}. ${text(s)}`).join('\n'));
  }
  if (facts.files && facts.files.length > 0) {
    parts.push(
      '**Files**\n\n' +
        [
          '| file | operation |',
          '| --- | --- |',
          ...facts.files.map((f) => `| ${cell(codeSpan(f.path))} | ${text(f.operation)} |`),
        ].join('\n'),
    );
  }
  if (facts.explored) parts.push(`**Looked at:** ${text(facts.explored)}`);
  // The test's name is the model's words: neutralised like LLM text.
  if (facts.reproduction) parts.push(`**Reproduction:** ${text(facts.reproduction)}`);
  if (facts.validation) {
    const after =
      facts.repairs && facts.repairs > 0
        ? ` (passed after ${facts.repairs} repair${facts.repairs === 1 ? '' : 's'}: the first answer failed, the fixer saw why)`
        : '';
    parts.push(`**Validation**${after}\n\n${validationTable(facts.validation)}`);
  }
  // Our words, but they name hosts that repository code asked for: neutralised like LLM text.
  for (const warning of facts.warnings ?? []) parts.push(`> [!WARNING]\n> ${text(warning)}`);
  if (facts.pr) {
    parts.push(
      `**Pull request:** #${facts.pr.number}${facts.pr.draft ? ' (draft)' : ''} — ${facts.pr.url}`,
    );
  }
  const footer = [`run \`${input.runId}\``];
  if (input.runPage) footer.push(`[run page](<${input.runPage}>)`);
  if (facts.usage) footer.unshift(usageLine(facts.usage));
  if (facts.outcome?.kind === 'failed' || facts.outcome?.kind === 'stopped') {
    footer.push(`comment \`${input.command} <more detail>\` to try again`);
  }
  parts.push(`<sub>${footer.join(' · ')}</sub>`);
  return parts.join('\n\n');
}
