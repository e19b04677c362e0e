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
  operatorSandbox,
  passthroughValues,
  withRepoSandbox,
  type SandboxMode,
} from '../../exec/index.js';
import { findIssueBranches } from '../../git/branch-name.js';
import { localWorkspaceOptions } from '../../git/local-workspace.js';
import { runGit } from '../../git/run-git.js';
import { readConfigAt } from '../../pipeline/read-config-at.js';
import { createConfiguredLlm } from '../../llm/create-configured-llm.js';
import type { Logger } from '../../logger.js';
import {
  ROUTES,
  type CodeSummary,
  type Commit,
  type FixPlan,
  type ReproductionOutput,
  type StageName,
  type StageOutputs,
  type StepName,
  type TriageResult,
} from '../../contracts.js';
import type { ProgressEvent } from '../../pipeline/ports.js';
import { RunFailure, runStages } from '../../pipeline/run-stages.js';
import { sanitizeUntrustedText } from '../../text/untrusted-text.js';
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

/** What a local run produced, stage by stage (absent: the run ended before it). */
export interface RunIssueResult {
  triage?: TriageResult;
  plan?: FixPlan;
  reproduction?: ReproductionOutput;
  code?: CodeSummary;
  commit?: Commit;
  pr?: { title: string; body: string };
  /** Where the run ended. */
  stage: StepName;
}

export interface LocalRunReport {
  runId: string;
  artifactsDir: string;
  /** `stopped`: a stage ended the run without an error (why: `stopped`); nothing was written. */
  outcome: 'success' | 'dry-run' | 'stopped' | 'failed';
  stopped?: string;
  result?: RunIssueResult;
  failure?: { stage: string; code: string; message: string };
  prFile?: string;
  /** The repository the branch landed in, and `git show --stat` of the commit. */
  repo?: string;
  diffStat?: string;
  /** Where the artifacts of an earlier run with the same id were moved. */
  previousArtifactsDir?: string;
}

async function git(repo: string, args: string[]): Promise<string> {
  return (await runGit(args, { cwd: repo })).stdout.trim();
}

/** Clean tree, a branch checked out, and the config of the repository's HEAD. */
async function preflight(
  repo: string,
): Promise<{ branch: string; head: string; config: RepoConfig }> {
  const top = await git(repo, ['rev-parse', '--show-toplevel']).catch(() => {
    throw new AutofixError('CONFIG_INVALID', `${repo} is not a git repository`);
  });
  if (resolve(top) !== resolve(repo)) {
    throw new AutofixError('CONFIG_INVALID', `--repo must be the top of the repository (${top})`);
  }
  const status = await git(repo, ['status', '--porcelain', '--untracked-files=all']);
  if (status !== '') {
    throw new AutofixError(
      'CONFIG_INVALID',
      `${repo} has uncommitted changes; commit or stash them first (autofix run needs a clean tree):\n${status}`,
    );
  }
  const branch = await git(repo, ['symbolic-ref', '--quiet', '--short', 'HEAD']).catch(() => {
    throw new AutofixError(
      'CONFIG_INVALID',
      `${repo} has a detached HEAD; check out a branch first`,
    );
  });
  const head = await git(repo, ['rev-parse', 'HEAD']);
  return { branch, head, config: await readConfigAt({ cwd: repo, commit: head }) };
}

/**
 * The branch an earlier run left for this issue in the repository: refused before any token is
 * spent unless `fresh` (then it is the branch this run replaces).
 */
async function earlierBranch(
  repo: string,
  prefix: string,
  issue: number,
  fresh: boolean,
): Promise<string | undefined> {
  const refs = await git(repo, ['for-each-ref', '--format=%(refname:strip=2)', 'refs/heads/']);
  const found = findIssueBranches(refs.split('\n').filter(Boolean), prefix, issue);
  if (found.length === 0) return undefined;
  if (!fresh || found.length > 1) {
    throw new AutofixError(
      'BRANCH_EXISTS',
      `${found.length > 1 ? 'branches' : 'branch'} ${found.join(', ')} already ${found.length > 1 ? 'exist' : 'exists'} for issue #${issue} in ${repo} (an earlier run's); ` +
        (found.length > 1
          ? 'delete all but one of them, then run again with --fresh to replace it'
          : 'run again with --fresh to start over from the current branch and replace it, or delete it'),
      { details: { branches: found }, recoverable: false },
    );
  }
  return found[0];
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

function titleAndBody(text: string, title: string | undefined): { title: string; body: string } {
  if (title) return { title, body: text };
  const [first = '', ...rest] = text.replace(/\r\n/g, '\n').trim().split('\n');
  return { title: first.replace(/^#+\s*/, ''), body: rest.join('\n').trim() };
}

export async function runLocal(
  options: LocalRunOptions,
  settings: Settings,
  deps: { log: Logger; progress?: (e: ProgressEvent) => void; signal?: AbortSignal },
): Promise<LocalRunReport> {
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
  const artifactsDir = options.artifactsDir ?? join(settings.workdir, 'runs', runId);
  const redact: Redactor = createRedactor(settings.secrets);
  // Same inputs, same run id, same folder: what an earlier run left is moved aside, so this
  // run's report lists only its own files.
  const previousArtifacts = setAsidePrevious(artifactsDir);
  const runLog: RunLog = createRunLog(artifactsDir, redact);
  runLog.text('llm-user-output.txt', ''); // the model's `&&&` notes, when it leaves any
  const started = Date.now();
  const stages: { stage: string; status: string; at_ms: number; message: string }[] = [];
  const progress = (e: ProgressEvent): void => {
    stages.push({ ...e, at_ms: Date.now() - started });
    deps.progress?.(e);
  };

  const llm = createConfiguredLlm(settings, {
    budget: config.token_budget,
    redact,
    log: deps.log,
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
  const onValidation = validationLogWriter(runLog, () => llm.usage.records().length);

  const sandbox = operatorSandbox(settings, {
    mode: options.sandbox ?? 'bwrap',
    disabledBy: 'the user ran autofix with --sandbox none',
  });
  // Fail before the first token: the run would stop at validation anyway.
  if (!options.dryRun)
    await checkSandbox(withRepoSandbox(sandbox, config.sandbox), undefined, '--sandbox none');
  redact.add(...passthroughValues(config.env_passthrough));

  const report: LocalRunReport = {
    runId,
    artifactsDir,
    outcome: 'failed',
    ...(previousArtifacts ? { previousArtifactsDir: previousArtifacts } : {}),
  };
  try {
    const run = await runStages(
      {
        facts: {
          runId,
          issue,
          config,
          baseBranch: pre.branch,
          ...(replaceBranch ? { replaceBranch } : {}),
          existingBranch: replaceBranch ? 'replace' : 'refuse',
          startOverHint: 'Run again with --fresh to start over from the base and replace it.',
        },
        // Recycles worktrees like the app (a warm run skips the full checkout).
        workspace: localWorkspaceOptions({
          workdir: settings.workdir,
          repoPath: repo,
          baseBranch: pre.branch,
          branchPrefix: config.branch_prefix,
          jobId: runId,
          logger: deps.log,
        }),
        env: { model, redact, onValidation, sandbox },
        ...(options.dryRun ? { until: 'plan' as const } : {}),
      },
      { llm, log: deps.log, progress, ...(deps.signal ? { signal: deps.signal } : {}) },
    );
    const result = resultOf(run.outputs, run.stage);
    for (const note of result.code?.notes.user ?? []) runLog.userOutput(note);
    report.result = result;
    report.outcome = run.stop ? 'stopped' : options.dryRun ? 'dry-run' : 'success';
    if (run.stop) report.stopped = redact(run.stop);
    if (result.pr)
      report.prFile = runLog.text('pull-request.md', `# ${result.pr.title}\n\n${result.pr.body}`);
    if (result.commit) {
      report.repo = repo;
      report.diffStat = (
        await runGit(['show', '--stat', '--format=', result.commit.sha], { cwd: repo })
      ).stdout.trimEnd();
    }
  } catch (err) {
    const failure = err instanceof RunFailure ? err : new RunFailure('triage', err, {});
    const shape = toErrorShape(failure.error);
    report.failure = { stage: failure.stage, code: shape.code, message: redact(shape.message) };
    report.result = resultOf(failure.outputs, failure.stage);
  } finally {
    const totals = llm.usage.totals();
    runLog.json('summary.json', {
      run_id: runId,
      repo,
      base_branch: pre.branch,
      base_commit: pre.head,
      issue: { number: issue.number, title: issue.title },
      outcome: report.outcome,
      failure: report.failure ?? null,
      stages,
      triage: report.result?.triage ?? null,
      plan: report.result?.plan ?? null,
      reproduction: report.result?.reproduction ?? null,
      stopped: report.stopped ?? null,
      commit: report.result?.commit
        ? {
            sha: report.result.commit.sha,
            branch: report.result.commit.branch,
            message: report.result.commit.message,
          }
        : null,
      validation:
        report.result?.code?.validation.map(({ command, exit_code, duration_ms, timed_out }) => ({
          command,
          exit_code,
          duration_ms,
          timed_out,
        })) ?? [],
      tokens: {
        prompt: totals.promptTokens,
        completion: totals.completionTokens,
        total: totals.totalTokens,
        budget: config.token_budget,
      },
      cost_usd: totals.cost,
      unpriced_models: totals.unpricedModels,
      duration_ms: Date.now() - started,
    });
  }
  return report;
}

function resultOf(outputs: StageOutputs, stage: StepName): RunIssueResult {
  return {
    stage,
    ...(outputs.triage ? { triage: outputs.triage } : {}),
    ...(outputs.plan ? { plan: outputs.plan } : {}),
    ...(outputs.reproduce ? { reproduction: outputs.reproduce } : {}),
    ...(outputs.code ? { code: outputs.code.code, commit: outputs.code.commit } : {}),
    ...(outputs.pr ? { pr: { title: outputs.pr.title, body: outputs.pr.body } } : {}),
  };
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
