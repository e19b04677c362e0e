/**
 * `autofix run`: the pipeline on a local repository, no GitHub and no Redis. The repository is
 * the workspace's remote: the job works in a worktree of the cache (the user's checkout is never
 * touched mid-run) and the validated commit lands on a branch of the user's repository.
 */
import { readdirSync, readFileSync, renameSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { createRedactor, type Redactor } from '../../artifacts/redact.js';
import { runIdFor } from '../../artifacts/run-id.js';
import { createRunLog, type RunLog } from '../../artifacts/run-log.js';
import type { Settings } from '../../config/env.js';
import { stageModelOf, type EditFormat, type RepoConfig } from '../../config/repo-config.js';
import { AutofixError, toErrorShape } from '../../errors.js';
import {
  checkSandbox,
  cliSandbox,
  passthroughValues,
  withRepoSandbox,
  type SandboxMode,
  type SandboxPolicy,
} from '../../exec/index.js';
import { localWorkspaceOptions } from '../../git/local-workspace.js';
import { runGit } from '../../git/run-git.js';
import { createConfiguredLlm } from '../../llm/create-configured-llm.js';
import type { Logger } from '../../logger.js';
import { ROUTES, type StageName } from '../../contracts.js';
import type { ProgressEvent } from '../../pipeline/ports.js';
import {
  StagesFailed,
  runStages,
  type RunStagesOptions,
  type RunStagesResult,
} from '../../pipeline/run-stages.js';
import { sanitizeUntrustedText } from '../../text/untrusted-text.js';
import { earlierBranch, preflight, titleAndBody, type Preflight } from './local-preflight.js';
import { writeSummary, type StageRecord } from './local-summary.js';
import { resultOf, validationOf, type LocalRunReport } from './local-run-report.js';

export type { LocalRunReport, RunIssueResult } from './local-run-report.js';
import { validationLogWriter } from '../../pipeline/validation-log.js';

export interface LocalRunOptions {
  repo: string;
  issueText: string;
  title?: string;
  number: number;
  dryRun?: boolean;
  format?: EditFormat;
  maxAttempts?: number;
  model?: string;
  /** Artifacts folder; `<AUTOFIX_WORKDIR>/runs/<run id>` when absent. */
  artifactsDir?: string;
  /**
   * `none` only when the user typed `--sandbox none`: `AUTOFIX_SANDBOX` in the environment does
   * not turn the sandbox off for `autofix run`.
   */
  sandbox?: SandboxMode;
  /** Start over from the base, replacing the branch an earlier run left for this issue. */
  fresh?: boolean;
}

/** Renames a non-empty artifacts folder to `<dir>.previous-<time>`; returns the new name. */
function setAsidePrevious(dir: string): string | undefined {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return undefined;
  }
  if (entries.length === 0) return undefined;
  const aside = `${dir}.previous-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  renameSync(dir, aside);
  return aside;
}

/** The run's inputs, fixed before any token is spent. */
interface LocalRun {
  repo: string;
  pre: Preflight;
  config: RepoConfig;
  issue: { repository: string; number: number; title: string; body: string };
  model: (stage: StageName) => string;
  replaceBranch: string | undefined;
  runId: string;
}

async function prepareRun(options: LocalRunOptions, settings: Settings): Promise<LocalRun> {
  const repo = resolve(options.repo);
  const pre = await preflight(repo);
  const config: RepoConfig = {
    ...pre.config,
    ...(options.format ? { edit_format: options.format } : {}),
    ...(options.maxAttempts === undefined ? {} : { max_repair_attempts: options.maxAttempts }),
  };
  const raw = titleAndBody(options.issueText, options.title);
  const issue = {
    repository: basename(repo),
    number: options.number,
    title: sanitizeUntrustedText(raw.title),
    body: sanitizeUntrustedText(raw.body),
  };
  const model = (stage: StageName): string =>
    options.model ?? stageModelOf(config.models, stage, settings.model);
  const replaceBranch = options.dryRun
    ? undefined
    : await earlierBranch(repo, config.branch_prefix, options.number, options.fresh ?? false);
  const runId = runIdFor({
    fresh: replaceBranch,
    repo,
    head: pre.head,
    issue,
    config,
    // The stages a local run goes through (the run id is a hash of them).
    models: ROUTES.fix.map(model),
    dryRun: Boolean(options.dryRun),
  });
  return { repo, pre, config, issue, model, replaceBranch, runId };
}

/** The model's client for the run: its budget, and every exchange kept in the run's folder. */
function localLlm(
  settings: Settings,
  run: LocalRun,
  runLog: RunLog,
  redact: Redactor,
  log: Logger,
) {
  return createConfiguredLlm(settings, {
    budget: run.config.token_budget,
    redact,
    log,
    onTranscript: (entry) => {
      const n = runLog.query(
        entry.request.messages.map((m) => `### ${m.role}\n\n${m.content}`).join('\n\n'),
      );
      runLog.response(
        n,
        entry.response ?? { error: entry.error },
        entry.responseText || `(no response: ${entry.error ?? 'unknown'})`,
      );
    },
  });
}

/** The sandbox validation will use, checked now: the run would stop at validation anyway. */
async function localSandbox(
  options: LocalRunOptions,
  settings: Settings,
  config: RepoConfig,
): Promise<SandboxPolicy> {
  const sandbox = cliSandbox(settings, options.sandbox);
  if (!options.dryRun)
    await checkSandbox(withRepoSandbox(sandbox, config.sandbox), undefined, '--sandbox none');
  return sandbox;
}

export async function runLocal(
  options: LocalRunOptions,
  settings: Settings,
  deps: { log: Logger; progress?: (e: ProgressEvent) => void; signal?: AbortSignal },
): Promise<LocalRunReport> {
  const run = await prepareRun(options, settings);
  const artifactsDir = options.artifactsDir ?? join(settings.workdir, 'runs', run.runId);
  const redact: Redactor = createRedactor(settings.secrets);
  // Same inputs, same run id, same folder: what an earlier run left is moved aside, so this
  // run's report lists only its own files.
  const previousArtifacts = setAsidePrevious(artifactsDir);
  const runLog: RunLog = createRunLog(artifactsDir, redact);
  runLog.text('llm-user-output.txt', ''); // the model's `&&&` notes, when it leaves any
  const started = Date.now();
  const stages: StageRecord[] = [];
  const progress = (e: ProgressEvent): void => {
    stages.push({ ...e, at_ms: Date.now() - started });
    deps.progress?.(e);
  };
  const llm = localLlm(settings, run, runLog, redact, deps.log);
  const onValidation = validationLogWriter(runLog, () => llm.usage.records().length);
  const sandbox = await localSandbox(options, settings, run.config);
  redact.add(...passthroughValues(run.config.env_passthrough));

  const report: LocalRunReport = {
    runId: run.runId,
    artifactsDir,
    outcome: 'failed',
    ...(previousArtifacts ? { previousArtifactsDir: previousArtifacts } : {}),
  };
  const env = { model: run.model, redact, onValidation, sandbox };
  try {
    const done = await runStages(stagesInput(run, options, settings, env, deps.log), {
      llm,
      log: deps.log,
      progress,
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
    await reportDone(report, done, { run, options, runLog, redact });
  } catch (err) {
    const failure = err instanceof StagesFailed ? err : new StagesFailed('triage', err, {});
    const shape = toErrorShape(failure.error);
    const validation = validationOf(shape.details);
    report.failure = {
      stage: failure.stage,
      code: shape.code,
      message: redact(shape.message),
      ...(validation ? { validation } : {}),
    };
    report.result = resultOf(failure.outputs, failure.stage);
  } finally {
    writeSummary(runLog, { run, report, stages, usage: llm.usage.totals(), started });
  }
  return report;
}

/** What the stage table is run with: the run's facts and a recycled worktree of the cache. */
function stagesInput(
  run: LocalRun,
  options: LocalRunOptions,
  settings: Settings,
  env: RunStagesOptions['env'],
  log: Logger,
): RunStagesOptions {
  const { replaceBranch } = run;
  return {
    facts: {
      runId: run.runId,
      issue: run.issue,
      config: run.config,
      baseBranch: run.pre.branch,
      ...(replaceBranch ? { replaceBranch } : {}),
      existingBranch: replaceBranch ? 'replace' : 'refuse',
      startOverHint: 'Run again with --fresh to start over from the base and replace it.',
    },
    // Recycles worktrees like the app (a warm run skips the full checkout).
    workspace: localWorkspaceOptions({
      workdir: settings.workdir,
      repoPath: run.repo,
      baseBranch: run.pre.branch,
      branchPrefix: run.config.branch_prefix,
      jobId: run.runId,
      logger: log,
    }),
    env,
    ...(options.dryRun ? { until: 'plan' as const } : {}),
  };
}

/** A run that went through its stages (or stopped): the report, the PR text, the diff stat. */
async function reportDone(
  report: LocalRunReport,
  done: RunStagesResult,
  ctx: { run: LocalRun; options: LocalRunOptions; runLog: RunLog; redact: Redactor },
): Promise<void> {
  const { runLog, redact } = ctx;
  const result = resultOf(done.outputs, done.stage);
  for (const note of result.code?.notes.user ?? []) runLog.userOutput(note);
  report.result = result;
  report.outcome = done.stop ? 'stopped' : ctx.options.dryRun ? 'dry-run' : 'success';
  if (done.stop) report.stopped = redact(done.stop);
  if (result.pr)
    report.prFile = runLog.text('pull-request.md', `# ${result.pr.title}\n\n${result.pr.body}`);
  if (result.commit) {
    report.repo = ctx.run.repo;
    report.diffStat = (
      await runGit(['show', '--stat', '--format=', result.commit.sha], { cwd: ctx.run.repo })
    ).stdout.trimEnd();
  }
}

/** For tests and `--issue-file`. */
export function readIssueFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new AutofixError(
      'CONFIG_INVALID',
      `cannot read --issue-file ${path}: ${(err as Error).message}`,
    );
  }
}
