/**
 * The failure comment (pure): which stage failed, the error code, why, what the maintainer can
 * do next, and a redacted excerpt. Every user-facing failure says all four (STYLE.md).
 */
import type { ErrorCode, ErrorShape } from '../errors.js';
import { clip, cell, fence, runMarker } from './markdown.js';
import { neutralizeMarkdown, type NeutralizeOptions } from './neutralize-markdown.js';
import type { RepoCoords } from './types.js';

export interface FailureCommentInput {
  /**
   * The repository, its GitHub host and the run's issue: links into the repository and closing
   * keywords for this issue stay live in the message. Without them none do.
   */
  repo?: RepoCoords;
  githubHost?: string;
  issueNumber?: number;
  runId: string;
  stage: string;
  error: ErrorShape;
  /** Attempts made before giving up (1 for a permanent error). */
  attempts: number;
  /** The slash command (`/autofix`), for the suggested next step. */
  command: string;
  /** Redacts secrets from everything shown. */
  redact: (text: string) => string;
}

const MAX_EXCERPT = 3000;

/** What a maintainer can do about each error code. */
export function nextStep(code: ErrorCode, command: string): string {
  switch (code) {
    case 'CONFIG_INVALID':
      return `Fix \`.github/autofix.yml\` on the default branch (the keys are named above), then comment \`${command}\`.`;
    case 'PERMISSION_DENIED':
      return `Check that the app is installed on this repository with write access to contents, issues and pull requests, then comment \`${command}\`.`;
    case 'RISK_TOO_HIGH':
      return `Triage rated this above \`risk_threshold\`. Split the issue into smaller ones, or raise \`risk_threshold\` in \`.github/autofix.yml\`, then comment \`${command}\`.`;
    case 'VALIDATION_FAILED':
      return `The change did not pass the repository's \`validate\` commands. Comment \`${command} <more detail>\` (expected behaviour, files to touch) to try again, or fix it by hand.`;
    case 'LLM_OUTPUT_INVALID':
    case 'INVALID_DIFF':
      return `The model's answer could not be used even after repairs. Comment \`${command} <more detail>\` naming the files and the expected change.`;
    case 'BUDGET_EXCEEDED':
      return `The run used up its token budget. Narrow the issue, or raise \`token_budget\` in \`.github/autofix.yml\`, then comment \`${command}\`.`;
    case 'PROTECTED_PATH':
    case 'WRITE_SCOPE_VIOLATION':
      return `The fix needs a file the bot may not write (\`protected_paths\`/\`allowed_paths\`). Make this change by hand, or adjust the config and comment \`${command}\`.`;
    case 'GIT_CONFLICT':
    case 'STALE_CONTEXT':
    case 'BRANCH_EXISTS':
      return `The default branch or the bot's branch changed while the run worked. Comment \`${command}\` to start again from the current state.`;
    case 'SANDBOX_UNAVAILABLE':
      return `The worker could not start the sandbox that repository commands must run in, so nothing of the repository ran. The operator of this Autofix installation must fix the worker (the reason and the fix are above), then comment \`${command}\`.`;
    case 'LLM_UNAVAILABLE':
    case 'TIMEOUT':
    case 'INTERNAL':
      return `This looked temporary and was retried without success. Check the LLM endpoint and the app's logs, then comment \`${command}\` to try again.`;
  }
}

function excerptOf(error: ErrorShape): string | undefined {
  if (error.details === undefined) return undefined;
  if (typeof error.details === 'string') return error.details;
  try {
    return JSON.stringify(error.details, null, 2);
  } catch {
    return '(the details could not be serialized)';
  }
}

export function renderFailureComment(input: FailureCommentInput): string {
  const { error, redact } = input;
  // Error messages can quote the LLM (an unusable answer, a plan step): shown, never acted on.
  // Redacted first, so no wrapping can split a secret before the redactor sees it.
  const options: NeutralizeOptions = {
    ...(input.repo ? { owner: input.repo.owner, repo: input.repo.repo } : {}),
    ...(input.githubHost ? { githubHost: input.githubHost } : {}),
    ...(input.issueNumber === undefined ? {} : { issueNumber: input.issueNumber }),
  };
  const tries = input.attempts > 1 ? ` after ${input.attempts} attempts` : '';
  const firstLine = redact(error.message.split('\n')[0] ?? '');
  const parts = [
    runMarker(`${input.runId}:failure`),
    `### ❌ Autofix failed during the **${input.stage}** stage${tries}`,
    `**Error:** \`${error.code}\` — ${cell(neutralizeMarkdown(firstLine, { ...options, inline: true }))}`,
  ];
  const rest = error.message.split('\n').slice(1).join('\n').trim();
  if (rest) parts.push(neutralizeMarkdown(redact(rest), options));
  parts.push(`**What you can do:** ${nextStep(error.code, input.command)}`);
  const excerpt = excerptOf(error);
  if (excerpt) {
    parts.push(
      `<details><summary>Details (secrets redacted)</summary>\n\n${fence(clip(redact(excerpt), MAX_EXCERPT), 'text')}\n\n</details>`,
    );
  }
  parts.push(`<sub>run \`${input.runId}\` · label \`automation-failed\` added</sub>`);
  return parts.join('\n\n');
}
