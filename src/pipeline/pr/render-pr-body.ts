/**
 * The pull-request body (docs/CONTRACTS.md: deterministic; the LLM supplies only the summary
 * paragraph). The same text is posted by the app and written to `pull-request.md` by `autofix run`.
 * Every LLM-written part (summary, notes, plan steps, triage summary) is neutralized: closing
 * keywords for other issues, mentions, images, HTML and foreign links are shown, not acted on.
 */
import type {
  Exploration,
  CommandResult,
  Commit,
  FixPlan,
  ReproductionOutput,
  TriageResult,
} from '../../contracts.js';
import { codeSpan } from '../../text/markdown.js';
import { neutralizeMarkdown, type NeutralizeOptions } from '../../text/neutralize-markdown.js';
import type { RepoCoords } from '../../github/types.js';
import { runLine } from '../../github/pull-run-id.js';
import { fence } from '../../llm/quote-untrusted.js';

export interface PrBodyInput {
  issueNumber: number;
  /** The repository and its GitHub host: LLM links into it stay live; without them none do. */
  repo?: RepoCoords;
  githubHost?: string;
  summary: string;
  triage: TriageResult;
  plan: FixPlan;
  commit: Pick<Commit, 'sha' | 'branch' | 'message' | 'diff' | 'files_changed'>;
  /** File → operation as applied. */
  changes: { path: string; operation: 'created' | 'modified' | 'deleted' }[];
  validation: CommandResult[];
  /** The LLM's `&&&` notes for the reviewer. */
  notes: string[];
  /** How the commands ran: no sandbox (the operator's choice), hosts setup was refused. */
  warnings?: string[];
  usage?: { totalTokens: number; costUsd?: number };
  runId?: string;
  /** The run page's link: stages, costs, outputs and the whole diff (absent for a local run). */
  runPage?: string;
  /** The reproduce stage's test, or why there is none. */
  reproduction?: ReproductionOutput;
  /** What the code agent looked at, when it worked with tools. */
  exploration?: Exploration;
}

/** At most this many of the agent's tool calls are listed; the run's artifacts keep them all. */
const MAX_STEPS_SHOWN = 40;

/** What the code agent looked at, in order: files read, searches, test runs, edits. */
export function explorationSection(e: Exploration, line: (text: string) => string): string {
  const steps = e.steps.slice(0, MAX_STEPS_SHOWN);
  const more = e.steps.length - steps.length;
  return (
    '### What the bot looked at\n\n' +
    steps
      .map(
        (s, i) =>
          `${i + 1}. ${s.round > 0 ? `(repair ${s.round}) ` : ''}${line(s.summary)}${s.error ? ' ✗' : ''}`,
      )
      .join('\n') +
    (more > 0 ? `\n\n_…and ${more} more; the run's artifacts keep the whole transcript._` : '') +
    `\n\n<sub>${e.steps.length} tool call(s); ${line(e.ends.join('; '))}.</sub>`
  );
}

/** Fail on the base commit, pass with the fix: the evidence, or why there is none. */
function reproductionSection(
  r: ReproductionOutput,
  validation: CommandResult[],
  line: (text: string) => string,
): string {
  if (r.status !== 'reproduced') return `### Reproduction\n\n_None: ${line(r.reason)}_`;
  const head = validation.find((v) => v.command === r.command);
  const after = head
    ? head.exit_code === 0
      ? `✅ passes with the fix (${formatDuration(head.duration_ms)})`
      : `❌ exit ${head.exit_code ?? '—'} with the fix`
    : 'not run with the fix';
  return (
    '### Reproduction\n\n' +
    `The test ${codeSpan(r.test_name.slice(0, 200))} in ${codeSpan(r.path)} (${codeSpan(r.command)}) ` +
    `was written before the fix and is part of this change.\n\n` +
    `- ❌ fails on the base commit:\n\n${fence(clip(r.base_failure, MAX_OUTPUT_CHARS), 'text')}\n\n` +
    `- ${after}`
  );
}

/** Keeps table cells on one line and stops `|` from splitting them. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function validationTable(results: CommandResult[]): string {
  if (results.length === 0)
    return '_No validation commands are configured (`validate` in `.github/autofix.yml`)._';
  const rows = results.map((r) => {
    const status = r.timed_out ? '⏱ timed out' : r.exit_code === 0 ? '✅' : '❌';
    return `| ${cell(codeSpan(r.command))} | ${status} | ${r.exit_code ?? '—'} | ${formatDuration(r.duration_ms)} |`;
  });
  return ['| command | result | exit code | duration |', '| --- | --- | --- | --- |', ...rows].join(
    '\n',
  );
}

/** GitHub refuses bodies over 65,536 characters: long parts keep their head and tail. */
const MAX_DIFF_CHARS = 30_000;
const MAX_OUTPUT_CHARS = 3_000;

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)}\n… ${text.length - 2 * half} characters cut …\n${text.slice(-half)}`;
}

export function renderPrBody(input: PrBodyInput): string {
  const options: NeutralizeOptions = {
    issueNumber: input.issueNumber,
    ...(input.repo ? { owner: input.repo.owner, repo: input.repo.repo } : {}),
    ...(input.githubHost ? { githubHost: input.githubHost } : {}),
  };
  const block = (text: string): string => neutralizeMarkdown(text.trim(), options).trim();
  const line = (text: string): string =>
    cell(neutralizeMarkdown(text, { ...options, inline: true }));

  const parts: string[] = [];
  parts.push(block(input.summary));
  parts.push(`Fixes #${input.issueNumber}`);
  for (const warning of input.warnings ?? []) parts.push(`> [!WARNING]\n> ${line(warning)}`);

  parts.push(
    '### Changes\n\n' +
      [
        '| file | operation |',
        '| --- | --- |',
        ...input.changes.map((c) => `| ${cell(codeSpan(c.path))} | ${c.operation} |`),
      ].join('\n'),
  );
  // A skipped reproduction (not a bug, turned off) says nothing worth a section.
  if (input.reproduction && input.reproduction.status !== 'skipped')
    parts.push(reproductionSection(input.reproduction, input.validation, line));
  parts.push(`### Validation\n\n${validationTable(input.validation)}`);
  if (input.exploration && input.exploration.steps.length > 0)
    parts.push(explorationSection(input.exploration, line));
  parts.push(
    '### Plan\n\n' +
      input.plan.plan_steps.map((s, i) => `${i + 1}. ${line(s.description)}`).join('\n'),
  );
  parts.push(
    `### Risk\n\n**${input.triage.risk}** (${input.triage.classification}): ${line(input.triage.summary)}`,
  );
  if (input.notes.length > 0) {
    parts.push(
      '### Notes from the agent\n\n' +
        input.notes.map((n) => `> ${block(n).replace(/\n/g, '\n> ')}`).join('\n\n'),
    );
  }

  const details: string[] = [`- Branch: ${codeSpan(input.commit.branch)}`];
  if (input.commit.sha) details.push(`- Commit: ${input.commit.sha}`);
  if (input.runId) details.push(runLine(input.runId));
  if (input.runPage) details.push(`- Run page: [stages, costs, outputs](<${input.runPage}>)`);
  if (input.usage) {
    const cost =
      input.usage.costUsd === undefined ? '' : `, about $${input.usage.costUsd.toFixed(4)}`;
    details.push(`- LLM usage: ${input.usage.totalTokens.toLocaleString('en-US')} tokens${cost}`);
  }
  const outputs = input.validation
    .filter((r) => r.stdout || r.stderr)
    .map(
      (r) =>
        `**${codeSpan(r.command)}**\n\n${fence(clip(`${r.stdout}${r.stderr ? `\n${r.stderr}` : ''}`.trim(), MAX_OUTPUT_CHARS), 'text')}`,
    );
  parts.push(
    '<details>\n<summary>Details</summary>\n\n' +
      details.join('\n') +
      `\n\n#### Diff\n\n${fence(clip(input.commit.diff, MAX_DIFF_CHARS), 'diff')}` +
      (outputs.length > 0 ? `\n\n#### Validation output\n\n${outputs.join('\n\n')}` : '') +
      '\n\n</details>',
  );
  parts.push(
    '<sub>Opened by Autofix. Comment `/autofix <feedback>` on this pull request to get another commit.</sub>',
  );
  return `${parts.join('\n\n')}\n`;
}
