/**
 * The failure comment (pure): which stage failed, the error code, why, what the maintainer can
 * do next, and a redacted excerpt. Every user-facing failure says all four (STYLE.md).
 */
import type { ErrorCode, ErrorShape } from '../errors.js';
import { clip, cell, codeSpan, fence, runMarker } from '../text/markdown.js';
import { neutralizeMarkdown, type NeutralizeOptions } from '../text/neutralize-markdown.js';
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
    case 'SETUP_FAILED':
      return `A \`setup\` command failed on the base commit, before any change was tried, so no fix was attempted. Change \`setup:\` in \`.github/autofix.yml\` on the default branch (for example \`npm install\` instead of \`npm ci\` when no lockfile is committed, or a host in \`network_allow\`), then comment \`${command}\`.`;
    case 'LLM_OUTPUT_INVALID':
    case 'INVALID_DIFF':
      return `The model's answer could not be used even after repairs. Comment \`${command} <more detail>\` naming the files and the expected change.`;
    case 'BUDGET_PAUSED':
      return `The run reached a spending cap. Comment \`${command} continue\` to go on from where it stopped, or raise the cap (\`cost_budget_usd\` in \`.github/autofix.yml\`, or the operator's limits).`;
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
    case 'SECRET_IN_CHANGE':
      return `The change would have published what looks like a credential at the places listed above (the values are shown nowhere), so nothing was committed or pushed. If a listed value is real, revoke it. If it is a false alarm (a made-up test value), comment \`${command} <more detail>\` asking for a placeholder or an environment variable instead, or make the change by hand.`;
    case 'LLM_UNAVAILABLE':
    case 'TIMEOUT':
    case 'INTERNAL':
      return `This looked temporary and was retried without success. Check the LLM endpoint and the app's logs, then comment \`${command}\` to try again.`;
  }
}

/** The code stage's root cause (`details.root_cause`), when the error carries one. */
interface RootCauseView {
  phase: string;
  command: string;
  exit_code: number | null;
  timed_out: boolean;
  new_failures: string[] | null;
  tail: string;
  log?: string;
  network?: boolean;
}

function rootCauseOf(error: ErrorShape): { root: RootCauseView; after: string[] } | undefined {
  const d = error.details as { root_cause?: Partial<RootCauseView>; after?: unknown } | undefined;
  const root = d?.root_cause;
  if (!root || typeof root.command !== 'string' || typeof root.tail !== 'string') return undefined;
  return {
    root: {
      phase: String(root.phase ?? 'validate'),
      command: root.command,
      exit_code: typeof root.exit_code === 'number' ? root.exit_code : null,
      timed_out: root.timed_out === true,
      new_failures: Array.isArray(root.new_failures) ? root.new_failures.map(String) : null,
      tail: root.tail,
      ...(typeof root.log === 'string' ? { log: root.log } : {}),
      network: root.network === true,
    },
    after: Array.isArray(d.after) ? d.after.map(String) : [],
  };
}

/** Root cause first: the command, how it ended, the end of its output, then what came after. */
function renderRootCause(
  view: { root: RootCauseView; after: string[] },
  redact: (text: string) => string,
  options: NeutralizeOptions,
): string[] {
  const { root, after } = view;
  const inline = (text: string): string =>
    neutralizeMarkdown(redact(text), { ...options, inline: true });
  const ended = root.timed_out ? 'timed out' : `exited with ${root.exit_code ?? 'no exit code'}`;
  const parts = [
    `**Root cause:** the ${root.phase === 'setup' ? 'setup' : 'validation'} command ${codeSpan(redact(root.command))} ${ended}.`,
  ];
  if (root.new_failures && root.new_failures.length > 0) {
    const shown = root.new_failures.slice(0, 10).map((n) => codeSpan(redact(n)));
    const more = root.new_failures.length > 10 ? ` and ${root.new_failures.length - 10} more` : '';
    parts.push(
      `Failing with the change and passing on the base commit: ${shown.join(', ')}${more}.`,
    );
  }
  if (root.network) {
    parts.push(
      'Its output looks like it needed the network: `validate` commands run without any network (only `setup:` may reach the package registries and the hosts in `network_allow`).',
    );
  }
  parts.push(
    `Output of ${codeSpan(redact(root.command))} (first and last lines, secrets redacted):\n\n${fence(clip(redact(root.tail), MAX_EXCERPT), 'text')}`,
  );
  if (after.length > 0) {
    parts.push(`**After that:**\n${after.map((a) => `- ${inline(a)}`).join('\n')}`);
  }
  if (root.log) parts.push(`Full log on the worker: ${codeSpan(redact(root.log))}`);
  return parts;
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
  const rootCause = rootCauseOf(error);
  const rest = error.message.split('\n').slice(1).join('\n').trim();
  // With a root cause, its parts are rendered from the details (the output fenced, not as text).
  if (rootCause) parts.push(...renderRootCause(rootCause, redact, options));
  else if (rest) parts.push(neutralizeMarkdown(redact(rest), options));
  parts.push(`**What you can do:** ${nextStep(error.code, input.command)}`);
  const excerpt = rootCause ? undefined : excerptOf(error);
  if (excerpt) {
    parts.push(
      `<details><summary>Details (secrets redacted)</summary>\n\n${fence(clip(redact(excerpt), MAX_EXCERPT), 'text')}\n\n</details>`,
    );
  }
  parts.push(`<sub>run \`${input.runId}\` · label \`automation-failed\` added</sub>`);
  return parts.join('\n\n');
}
