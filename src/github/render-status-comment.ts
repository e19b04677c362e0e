/**
 * The one status comment per run (pure): stage table, risk, plan, files, validation, PR link,
 * tokens and cost. Edited in place as each stage finishes, so maintainers watch one comment.
 */
import { cell, formatDuration, runMarker } from './markdown.js';
import type { StageStatus, StatusFacts, ValidationRow } from './types.js';

export interface StatusCommentInput {
  runId: string;
  /** Stage names in pipeline order. */
  stageOrder: readonly string[];
  facts: StatusFacts;
  /** The slash command, for the hints (`/autofix`). */
  command: string;
}

const STATE_ICON: Record<StageStatus['state'], string> = {
  pending: '⬜ pending',
  queued: '🕓 queued',
  running: '⏳ running',
  done: '✅ done',
  failed: '❌ failed',
  skipped: '⏭ skipped',
};

function headline(facts: StatusFacts): string {
  switch (facts.outcome?.kind) {
    case 'success':
      return '### 🚀 Autofix opened a pull request';
    case 'stopped':
      return '### ⏹ Autofix stopped without changes';
    case 'failed':
      return '### ❌ Autofix failed';
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
    return `| \`${cell(r.command)}\` | ${result} | ${r.exitCode ?? '—'} | ${formatDuration(r.durationMs)} |`;
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
  const parts: string[] = [runMarker(input.runId), headline(facts)];
  if (facts.outcome?.message) parts.push(cell(facts.outcome.message));
  parts.push(stageTable(input.stageOrder, facts));
  if (facts.risk) {
    parts.push(`**Risk:** ${facts.risk}${facts.summary ? ` — ${cell(facts.summary)}` : ''}`);
  } else if (facts.summary) {
    parts.push(`**Summary:** ${cell(facts.summary)}`);
  }
  if (facts.planSteps && facts.planSteps.length > 0) {
    parts.push('**Plan**\n\n' + facts.planSteps.map((s, i) => `${i + 1}. ${cell(s)}`).join('\n'));
  }
  if (facts.files && facts.files.length > 0) {
    parts.push(
      '**Files**\n\n' +
        [
          '| file | operation |',
          '| --- | --- |',
          ...facts.files.map((f) => `| \`${cell(f.path)}\` | ${cell(f.operation)} |`),
        ].join('\n'),
    );
  }
  if (facts.validation) parts.push(`**Validation**\n\n${validationTable(facts.validation)}`);
  if (facts.pr) {
    parts.push(
      `**Pull request:** #${facts.pr.number}${facts.pr.draft ? ' (draft)' : ''} — ${facts.pr.url}`,
    );
  }
  const footer = [`run \`${input.runId}\``];
  if (facts.usage) footer.unshift(usageLine(facts.usage));
  if (facts.outcome?.kind === 'failed' || facts.outcome?.kind === 'stopped') {
    footer.push(`comment \`${input.command} <more detail>\` to try again`);
  }
  parts.push(`<sub>${footer.join(' · ')}</sub>`);
  return parts.join('\n\n');
}
