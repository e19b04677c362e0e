/**
 * The "Autofix verification" Check Run on the PR's head commit (issue #17): the verdict a
 * maintainer reads first — the reproduction's fail→pass evidence, every validation command with
 * its exit code and duration, the scope check (files changed ⊆ the plan's files), sandbox mode,
 * tokens and cost — with annotations at the file and line the failing output points at.
 *
 * `renderCheckRun` is pure; `publishCheckRun` creates the run, or updates this app's run of the
 * same name on the same commit (a retried stage or a re-run never adds a second one). Everything
 * from the repository or the model (commands, paths, test names, amendment reasons, output) is
 * shown, not acted on: code spans and fences, or `neutralizeMarkdown`.
 */
import type { CommandResult } from '../contracts.js';
import type { SandboxMode } from '../exec/sandbox-policy.js';
import type { Logger } from '../logger.js';
import {
  boundAnnotations,
  MAX_ANNOTATIONS,
  parseAnnotations,
  plainOutput,
  type Annotation,
} from '../text/annotations.js';
import { tailOf } from '../text/keep-ends.js';
import { cell, codeSpan, fence, formatDuration } from './markdown.js';
import { neutralizeMarkdown, type NeutralizeOptions } from './neutralize-markdown.js';
import type { GitHubClient, RepoCoords } from './types.js';

export const CHECK_RUN_NAME = 'Autofix verification';
/** GitHub's limit for a check run's `output.summary` and `output.text`. */
export const MAX_CHECK_OUTPUT_CHARS = 65_535;

export type CheckConclusion = 'success' | 'failure' | 'neutral';

/** The reproduction test run on the base commit (it must fail) and on the head (it must pass). */
export interface ReproductionEvidence {
  /** The test's name as its runner prints it. */
  test: string;
  /** The file the reproduction added or changed (repository-relative): part of the scope. */
  file?: string;
  /** The command that ran it. */
  command?: string;
  base: { exitCode: number | null; excerpt: string };
  head: { exitCode: number | null; excerpt?: string; durationMs?: number };
}

export interface CheckRunInput {
  /** The PR's head commit. */
  headSha: string;
  runId: string;
  /** The validation commands as run on the head commit (the code stage's `validation`). */
  validation: readonly CommandResult[];
  /** Commands whose failure already existed on the base commit (not this change's doing). */
  preexisting: readonly string[];
  /** Files the change touched (the code stage's `changes`). */
  changes: readonly { path: string; operation?: string }[];
  /** The plan's files (`FixPlan.file_changes[].path`); absent on a re-run (no plan to compare). */
  planFiles?: readonly string[];
  /** Files the code stage added to the plan, and why: inside the scope. */
  amendments: readonly { path: string; why: string }[];
  sandbox: SandboxMode;
  usage?: { totalTokens: number; costUsd?: number };
  reproduction?: ReproductionEvidence;
  /** The worktree the commands ran in: absolute paths in their output are made relative to it. */
  worktree?: string | readonly string[];
  /** The run's repository, host and issue: the only links and closing keywords kept live. */
  repo?: RepoCoords;
  githubHost?: string;
  issueNumber?: number;
  /** "Details" link of the check run (the PR or the run's page). */
  detailsUrl?: string;
  /**
   * A re-run asked from the Checks UI: the head verified as it is, with the reproduction command
   * its commits name (run as a validation command), or null when they name none.
   */
  rerun?: { reproduction: string | null };
}

export interface CheckRunVerdict {
  conclusion: CheckConclusion;
  /** Validation commands that failed and did not already fail on the base commit. */
  failed: CommandResult[];
  passed: CommandResult[];
  /** Validation commands that failed on the base commit too. */
  preexisting: CommandResult[];
  /** Changed files neither in the plan nor amended into it (nor the reproduction's file). */
  outsidePlan: string[];
  /** Changed files outside the plan that an amendment explains. */
  amended: { path: string; why: string }[];
  reproduction: 'none' | 'fail-to-pass' | 'still-fails' | 'passed-on-base';
}

/** What `POST /repos/{owner}/{repo}/check-runs` receives (`completed_at` is added on publish). */
export interface CheckRunPayload {
  name: typeof CHECK_RUN_NAME;
  head_sha: string;
  status: 'completed';
  conclusion: CheckConclusion;
  external_id: string;
  details_url?: string;
  output: { title: string; summary: string; text?: string; annotations: Annotation[] };
}

const passedRun = (r: { exit_code: number | null; timed_out: boolean }): boolean =>
  r.exit_code === 0 && !r.timed_out;

const plainPath = (path: string): string => path.replace(/^\.\//, '');

/**
 * Failure when a validation command failed (and did not fail on the base commit already), the
 * reproduction still fails on the head, or the change touched files outside the plan that no
 * amendment explains; neutral when nothing verified the change (no validation command passed and
 * no reproduction went from fail to pass); success otherwise.
 */
export function checkRunVerdict(input: CheckRunInput): CheckRunVerdict {
  const preexistingNames = new Set(input.preexisting);
  const failedAll = input.validation.filter((r) => !passedRun(r));
  const failed = failedAll.filter((r) => !preexistingNames.has(r.command));
  const preexisting = failedAll.filter((r) => preexistingNames.has(r.command));
  const passed = input.validation.filter(passedRun);

  const planned = new Set((input.planFiles ?? []).map(plainPath));
  if (input.reproduction?.file) planned.add(plainPath(input.reproduction.file));
  const why = new Map(input.amendments.map((a) => [plainPath(a.path), a.why]));
  const outsidePlan: string[] = [];
  const amended: { path: string; why: string }[] = [];
  for (const path of new Set(input.changes.map((c) => plainPath(c.path)))) {
    if (input.planFiles === undefined || planned.has(path)) continue;
    const reason = why.get(path);
    if (reason === undefined) outsidePlan.push(path);
    else amended.push({ path, why: reason });
  }

  const repro = input.reproduction;
  const reproduction: CheckRunVerdict['reproduction'] = !repro
    ? 'none'
    : repro.base.exitCode === 0
      ? 'passed-on-base'
      : repro.head.exitCode === 0
        ? 'fail-to-pass'
        : 'still-fails';

  const conclusion: CheckConclusion =
    failed.length > 0 || outsidePlan.length > 0 || reproduction === 'still-fails'
      ? 'failure'
      : passed.length === 0 && reproduction !== 'fail-to-pass'
        ? 'neutral'
        : 'success';
  return { conclusion, failed, passed, preexisting, outsidePlan, amended, reproduction };
}

// ---- Rendering ----

const MAX_ROWS = 50;
const MAX_FILES = 50;
const MAX_AMENDMENTS = 20;
const MAX_SHOWN_CHARS = 300;
const EXCERPT_LINES = 40;
const EXCERPT_CHARS = 3_000;
const TEXT_EXCERPT_LINES = 80;
const TEXT_EXCERPT_CHARS = 8_000;

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

function short(text: string, max = MAX_SHOWN_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** An output excerpt in a fence: plain text (no escapes), its end (where failures are printed). */
function excerpt(text: string, lines = EXCERPT_LINES, chars = EXCERPT_CHARS): string {
  // Only the end is shown: the rest is not cleaned (output can be megabytes).
  const end = text.length > chars * 4 ? text.slice(-chars * 4).replace(/^[^\n]*\n/, '') : text;
  return fence(tailOf(plainOutput(end), lines, chars) || '(no output)', 'text');
}

function title(verdict: CheckRunVerdict, input: CheckRunInput): string {
  if (verdict.conclusion === 'failure') {
    const reasons: string[] = [];
    if (verdict.failed.length > 0) {
      reasons.push(`${plural(verdict.failed.length, 'validation command')} failed`);
    }
    if (verdict.reproduction === 'still-fails') reasons.push('the reproduction still fails');
    if (verdict.outsidePlan.length > 0) {
      reasons.push(`${plural(verdict.outsidePlan.length, 'file')} changed outside the plan`);
    }
    return reasons.join('; ').replace(/^./, (c) => c.toUpperCase());
  }
  if (verdict.conclusion === 'neutral') {
    return input.validation.length === 0
      ? 'Nothing verified: no validation commands'
      : 'Nothing verified: every validation command already failed on the base commit';
  }
  const parts: string[] = [];
  if (verdict.passed.length > 0) {
    parts.push(`${plural(verdict.passed.length, 'validation command')} passed`);
  }
  if (verdict.reproduction === 'fail-to-pass')
    parts.push('the reproduction fails before and passes after');
  return `Verified: ${parts.join('; ')}`;
}

const HEADLINE: Record<CheckConclusion, string> = {
  success: '## ✅ Autofix verified this change',
  failure: '## ❌ Autofix could not verify this change',
  neutral: '## ⚪ Nothing could verify this change',
};

function exitText(code: number | null): string {
  return code === null ? '—' : String(code);
}

function reproductionSection(
  repro: ReproductionEvidence,
  verdict: CheckRunVerdict,
  text: (s: string) => string,
): string {
  const lines = [`### Reproduction`, ''];
  const command = repro.command ? ` — ${codeSpan(short(repro.command))}` : '';
  const file = repro.file ? ` in ${codeSpan(short(repro.file))}` : '';
  lines.push(`**Test:** ${text(short(repro.test, 500))}${file}${command}`, '');
  lines.push('| commit | result | exit code |', '| --- | --- | --- |');
  lines.push(
    `| base | ${repro.base.exitCode === 0 ? '⚠️ passed (shows no bug)' : '❌ failed, as the issue describes'} | ${exitText(repro.base.exitCode)} |`,
  );
  const headTime =
    repro.head.durationMs === undefined ? '' : ` in ${formatDuration(repro.head.durationMs)}`;
  lines.push(
    `| head | ${repro.head.exitCode === 0 ? `✅ passed${headTime}` : `❌ still fails${headTime}`} | ${exitText(repro.head.exitCode)} |`,
  );
  if (verdict.reproduction === 'passed-on-base') {
    lines.push('', '_The test passed on the base commit too: it is not evidence of the fix._');
  }
  lines.push(
    '',
    '<details><summary>Base commit failure</summary>',
    '',
    excerpt(repro.base.excerpt),
  );
  lines.push('', '</details>');
  if (repro.head.excerpt) {
    lines.push('', '<details><summary>Head commit output</summary>', '');
    lines.push(excerpt(repro.head.excerpt), '', '</details>');
  }
  return lines.join('\n');
}

function validationSection(input: CheckRunInput, verdict: CheckRunVerdict): string {
  if (input.validation.length === 0) {
    return '### Validation\n\n_No validation commands ran: nothing checked the change._';
  }
  const preexisting = new Set(verdict.preexisting);
  const rows = input.validation.slice(0, MAX_ROWS).map((r) => {
    const result = passedRun(r)
      ? '✅ passed'
      : preexisting.has(r)
        ? '⚠️ failed on the base commit too'
        : r.timed_out
          ? '⏱ timed out'
          : '❌ failed';
    return `| ${cell(codeSpan(short(r.command)))} | ${result} | ${exitText(r.exit_code)} | ${formatDuration(r.duration_ms)} |`;
  });
  const more =
    input.validation.length > MAX_ROWS
      ? `\n\n_… and ${input.validation.length - MAX_ROWS} more commands._`
      : '';
  return [
    '### Validation',
    '',
    '| command | result | exit code | duration |',
    '| --- | --- | --- | --- |',
    ...rows,
  ]
    .join('\n')
    .concat(more);
}

function fileList(paths: readonly string[]): string {
  const shown = paths.slice(0, MAX_FILES).map((p) => `- ${codeSpan(short(p))}`);
  if (paths.length > MAX_FILES) shown.push(`- … and ${paths.length - MAX_FILES} more`);
  return shown.join('\n');
}

function scopeSection(
  input: CheckRunInput,
  verdict: CheckRunVerdict,
  text: (s: string) => string,
): string {
  const changed = new Set(input.changes.map((c) => plainPath(c.path))).size;
  const parts = ['### Scope'];
  if (input.planFiles === undefined) {
    parts.push(
      `${plural(changed, 'file')} changed; a re-run verifies the commit as it is, with no plan to compare them with.`,
    );
  } else if (verdict.outsidePlan.length === 0) {
    parts.push(
      `${plural(changed, 'file')} changed, all within the plan${verdict.amended.length > 0 ? ' (with its amendments)' : ''}.`,
    );
  } else {
    parts.push(
      `${plural(verdict.outsidePlan.length, 'file')} changed outside the plan's ${plural(input.planFiles?.length ?? 0, 'file')}, with no amendment explaining ${verdict.outsidePlan.length === 1 ? 'it' : 'them'}:`,
      fileList(verdict.outsidePlan),
    );
  }
  if (verdict.amended.length > 0) {
    const rows = verdict.amended
      .slice(0, MAX_AMENDMENTS)
      .map((a) => `- ${codeSpan(short(a.path))} — ${text(short(a.why, 500))}`);
    if (verdict.amended.length > MAX_AMENDMENTS) {
      rows.push(`- … and ${verdict.amended.length - MAX_AMENDMENTS} more`);
    }
    parts.push('Added to the plan while coding:', rows.join('\n'));
  }
  return parts.join('\n\n');
}

function runSection(input: CheckRunInput): string {
  const lines = ['### Run', ''];
  lines.push(
    input.sandbox === 'bwrap'
      ? '- **Sandbox:** bubblewrap (no network but the allowed hosts, only the worktree writable)'
      : '- **Sandbox:** ⚠️ none — the repository’s commands ran without a sandbox',
  );
  if (input.usage) {
    const cost =
      input.usage.costUsd === undefined ? '' : ` · cost ≈ $${input.usage.costUsd.toFixed(4)}`;
    lines.push(`- **Tokens:** ${input.usage.totalTokens.toLocaleString('en-US')}${cost}`);
  }
  if (input.rerun) {
    lines.push(
      `- **Re-run:** asked from the Checks UI; the commit was verified again as it is (no model asked)${
        input.rerun.reproduction
          ? `, its reproduction ${codeSpan(short(input.rerun.reproduction))} included`
          : ''
      }`,
    );
  }
  lines.push(`- **Run:** ${codeSpan(input.runId)}`);
  return lines.join('\n');
}

/**
 * Sections joined within `max` characters: the last one (the run's facts) always stays; a
 * section that no longer fits is left out whole (cutting one could leave a fence or table open),
 * with a line saying so.
 */
function fitSections(sections: readonly string[], last: string, max: number): string {
  const cutNote = '_… cut: GitHub limits a check run to 65,535 characters._';
  const budget = max - last.length - cutNote.length - 8;
  const kept: string[] = [];
  let used = 0;
  let cut = false;
  for (const section of sections) {
    if (used + section.length + 2 > budget) {
      cut = true;
      continue;
    }
    kept.push(section);
    used += section.length + 2;
  }
  const out = [...kept, ...(cut ? [cutNote] : []), last].join('\n\n');
  return out.length <= max ? out : out.slice(0, max);
}

/** The output tails of the failing commands (new failures first), for `output.text`. */
function failureText(verdict: CheckRunVerdict): string | undefined {
  const sections = [...verdict.failed, ...verdict.preexisting].map((r) => {
    const state = verdict.failed.includes(r) ? 'failed' : 'failed on the base commit too';
    const how = r.timed_out ? 'timed out' : `exit code ${exitText(r.exit_code)}`;
    const output = [r.stdout, r.stderr].filter((s) => s.trim() !== '').join('\n');
    return `#### ${codeSpan(short(r.command))} ${state} (${how})\n\n${excerpt(output, TEXT_EXCERPT_LINES, TEXT_EXCERPT_CHARS)}`;
  });
  if (sections.length === 0) return undefined;
  return fitSections(sections, '', MAX_CHECK_OUTPUT_CHARS).trimEnd();
}

function annotationsOf(input: CheckRunInput, verdict: CheckRunVerdict): Annotation[] {
  const found: Annotation[] = [];
  const options = input.worktree === undefined ? {} : { worktree: input.worktree };
  if (verdict.reproduction === 'still-fails' && input.reproduction?.head.excerpt) {
    found.push(...parseAnnotations(input.reproduction.head.excerpt, options));
  }
  for (const r of verdict.failed) {
    if (found.length >= MAX_ANNOTATIONS) break;
    const annotations = parseAnnotations(`${r.stdout}\n${r.stderr}`, options);
    found.push(...annotations.map((a) => ({ ...a, title: a.title ?? short(r.command, 200) })));
  }
  const deleted = new Set(
    input.changes.filter((c) => c.operation === 'deleted').map((c) => plainPath(c.path)),
  );
  for (const path of verdict.outsidePlan) {
    if (deleted.has(path)) continue;
    found.push({
      path,
      start_line: 1,
      end_line: 1,
      annotation_level: 'failure',
      title: 'Changed outside the plan',
      message: "This file is not among the plan's files and no amendment explains why it changed.",
    });
  }
  return boundAnnotations(found);
}

export function renderCheckRun(input: CheckRunInput): CheckRunPayload {
  const verdict = checkRunVerdict(input);
  const options: NeutralizeOptions = {
    inline: true,
    ...(input.repo ? { owner: input.repo.owner, repo: input.repo.repo } : {}),
    ...(input.githubHost ? { githubHost: input.githubHost } : {}),
    ...(input.issueNumber === undefined ? {} : { issueNumber: input.issueNumber }),
  };
  const text = (s: string): string => cell(neutralizeMarkdown(s, options));
  const outputTitle = title(verdict, input);
  const sections = [`${HEADLINE[verdict.conclusion]}\n\n${outputTitle}.`];
  if (input.reproduction) sections.push(reproductionSection(input.reproduction, verdict, text));
  sections.push(validationSection(input, verdict), scopeSection(input, verdict, text));
  const summary = fitSections(sections, runSection(input), MAX_CHECK_OUTPUT_CHARS);
  const details = failureText(verdict);
  return {
    name: CHECK_RUN_NAME,
    head_sha: input.headSha,
    status: 'completed',
    conclusion: verdict.conclusion,
    external_id: input.runId,
    ...(input.detailsUrl ? { details_url: input.detailsUrl } : {}),
    output: {
      title: outputTitle,
      summary,
      ...(details ? { text: details } : {}),
      annotations: annotationsOf(input, verdict),
    },
  };
}

// ---- Publishing ----

export interface PublishCheckRunOptions {
  /**
   * The app's id (`APP_ID`): only this app's runs are updated. Without it a run of the same name
   * is taken as ours, and when GitHub refuses to update it (another app's) a new one is created.
   */
  appId?: number;
  /** The clock for `completed_at`. */
  now?: () => Date;
}

export interface PublishedCheckRun {
  id: number;
  url?: string;
  /** False when an existing run for the same commit was updated. */
  created: boolean;
  conclusion: CheckConclusion;
}

type ExistingRun = { id: number; annotationsCount: number };

async function findOwnRun(
  octokit: GitHubClient,
  repo: RepoCoords,
  headSha: string,
  appId: number | undefined,
): Promise<ExistingRun | undefined> {
  const { data } = await octokit.rest.checks.listForRef({
    ...repo,
    ref: headSha,
    check_name: CHECK_RUN_NAME,
    filter: 'latest',
    per_page: 100,
    ...(appId === undefined ? {} : { app_id: appId }),
  });
  const ours = data.check_runs
    .filter((r) => r.name === CHECK_RUN_NAME && r.head_sha === headSha)
    .filter((r) => appId === undefined || r.app?.id === appId)
    .sort((a, b) => b.id - a.id)[0];
  return ours && { id: ours.id, annotationsCount: ours.output?.annotations_count ?? 0 };
}

const annotationKey = (a: {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level?: string | null;
  message?: string | null;
  title?: string | null;
}): string =>
  JSON.stringify([a.path, a.start_line, a.end_line, a.annotation_level, a.message, a.title ?? '']);

/**
 * GitHub appends an update's annotations to the run's existing ones (it cannot remove any): send
 * only those the run does not have yet, so a re-publish for the same commit does not double them.
 */
async function annotationsToAdd(
  octokit: GitHubClient,
  repo: RepoCoords,
  run: ExistingRun,
  annotations: Annotation[],
  log: Logger,
): Promise<Annotation[]> {
  if (run.annotationsCount === 0 || annotations.length === 0) return annotations;
  try {
    const existing = await octokit.paginate(octokit.rest.checks.listAnnotations, {
      ...repo,
      check_run_id: run.id,
      per_page: 100,
    });
    const have = new Set(existing.map(annotationKey));
    return annotations.filter((a) => !have.has(annotationKey(a)));
  } catch (err) {
    log.warn({ err, checkRunId: run.id }, 'could not read the check run’s annotations');
    return annotations;
  }
}

const statusOf = (err: unknown): number | undefined =>
  typeof err === 'object' && err !== null && 'status' in err
    ? Number((err as { status: unknown }).status)
    : undefined;

/**
 * Publishes the verification on `input.headSha`: updates this app's "Autofix verification" run on
 * that commit when there is one, creates it otherwise. Best effort, like the status comment: a
 * refusal (the installation lacks `checks: write`, GitHub is down) is logged and gives undefined;
 * it never fails the run whose PR is already open.
 */
export async function publishCheckRun(
  octokit: GitHubClient,
  repo: RepoCoords,
  input: CheckRunInput,
  log: Logger,
  options: PublishCheckRunOptions = {},
): Promise<PublishedCheckRun | undefined> {
  const payload = renderCheckRun(input);
  const completedAt = (options.now?.() ?? new Date()).toISOString();
  const { conclusion } = payload;
  try {
    const existing = await findOwnRun(octokit, repo, input.headSha, options.appId);
    if (existing) {
      try {
        const annotations = await annotationsToAdd(
          octokit,
          repo,
          existing,
          payload.output.annotations,
          log,
        );
        // An update names no commit: the run keeps its own.
        const { data } = await octokit.rest.checks.update({
          ...repo,
          check_run_id: existing.id,
          name: payload.name,
          status: payload.status,
          conclusion,
          external_id: payload.external_id,
          ...(payload.details_url ? { details_url: payload.details_url } : {}),
          completed_at: completedAt,
          output: { ...payload.output, annotations },
        });
        return { id: data.id, url: data.html_url ?? undefined, created: false, conclusion };
      } catch (err) {
        // Not ours after all (another app's run of the same name): ours is created beside it.
        if (statusOf(err) !== 403 && statusOf(err) !== 404) throw err;
        log.warn({ err, checkRunId: existing.id }, 'could not update the check run; creating one');
      }
    }
    const { data } = await octokit.rest.checks.create({
      ...repo,
      ...payload,
      completed_at: completedAt,
    });
    return { id: data.id, url: data.html_url ?? undefined, created: true, conclusion };
  } catch (err) {
    log.warn({ err, headSha: input.headSha }, 'could not publish the check run');
    return undefined;
  }
}
