/**
 * The plan a maintainer approves (pure): risk, steps, files with their operation and the
 * validation commands, then what to answer. Every word of it but ours is the model's (or the
 * repository's): shown neutralised like the status comment's, never live Markdown.
 */
import type { FixPlan, TriageResult } from '../contracts.js';
import { cell, codeSpan } from '../text/markdown.js';
import { neutralizeMarkdown, type NeutralizeOptions } from '../text/neutralize-markdown.js';
import type { RepoCoords } from './types.js';

export interface PlanCommentInput {
  /** The hidden marker that finds this comment again on a retry (`planCommentMarker`). */
  marker: string;
  triage: Pick<TriageResult, 'risk' | 'summary'>;
  plan: Pick<FixPlan, 'plan_steps' | 'file_changes' | 'validation_commands'>;
  /** The slash command (`/autofix`). */
  command: string;
  /** The repository and host: links into it stay live in the model's text, as in the status. */
  repo?: RepoCoords;
  githubHost?: string;
}

/** One marker per run and plan round: a re-plan posts its own comment, a retry finds its own. */
export function planCommentMarker(runId: string, round: number): string {
  return `<!-- autofix-plan:${runId}:${round} -->`;
}

export function renderPlanComment(input: PlanCommentInput): string {
  const options: NeutralizeOptions = {
    inline: true,
    ...(input.repo ? { owner: input.repo.owner, repo: input.repo.repo } : {}),
    ...(input.githubHost ? { githubHost: input.githubHost } : {}),
  };
  const text = (s: string): string => cell(neutralizeMarkdown(s, options));
  const { plan, triage, command } = input;
  const steps = plan.plan_steps.map((s, i) => `${i + 1}. ${text(s.description)}`);
  const files = plan.file_changes.map(
    (f) => `| ${cell(codeSpan(f.path))} | ${text(f.operation)} |`,
  );
  const commands =
    plan.validation_commands.length > 0
      ? plan.validation_commands.map((c) => `- ${codeSpan(c)}`).join('\n')
      : '_None: no configured validation command applies._';
  return [
    input.marker,
    '### 📋 Autofix planned this fix and waits for approval',
    `**Risk:** ${text(triage.risk)}${triage.summary ? ` — ${text(triage.summary)}` : ''}`,
    `**Steps**\n\n${steps.join('\n')}`,
    `**Files**\n\n| file | operation |\n| --- | --- |\n${files.join('\n')}`,
    `**Tests and validation**\n\n${commands}`,
    `No code is written until someone with write access answers: comment \`${command} approve\` ` +
      `to go on with this plan, or \`${command} plan <changes>\` to have it planned again with ` +
      'your words.',
  ].join('\n\n');
}
