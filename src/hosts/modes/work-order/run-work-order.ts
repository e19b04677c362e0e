/**
 * `autofix work-order` (README), the harness around the SE → TR → PO loop:
 *
 *   1. validate the work order (nothing runs when it is invalid)
 *   2. preflight: git repository, clean tree, baseline commit; deterministic run id
 *   3. attempts 1..max from the baseline (run-attempts.ts, each one run-attempt.ts) on the
 *      shared repair loop (`pipeline/code/repair-loop.ts`); after a failed attempt
 *      `git reset --hard <baseline>` + `git clean -fd`, and its FailureBrief feeds the next one
 *   4. on PASS the changes stay uncommitted and the work tree's git tree hash is recorded
 *
 * Artifacts: `<out>/<run_id>/attempt_<N>/…` and `<out>/<run_id>/run_summary.json`, redacted.
 */
import { rm } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { createRedactor, type Redactor } from '../../../artifacts/redact.js';
import { runIdFor } from '../../../artifacts/run-id.js';
import { createRunLog, type RunLog } from '../../../artifacts/run-log.js';
import { requireSettings, type Settings } from '../../../config/env.js';
import { pathPolicy } from '../../../edits/index.js';
import { AutofixError, isAutofixError } from '../../../errors.js';
import { createConfiguredLlm } from '../../../llm/create-configured-llm.js';
import { loadEditFormatInstructions } from '../../../llm/load-agent.js';
import {
  checkSandbox,
  cliSandbox,
  withRepoSandbox,
  type SandboxMode,
} from '../../../exec/index.js';
import type { Logger } from '../../../logger.js';
import { modeHome } from '../mode-home.js';
import { loadModeAgent } from '../load-mode-agent.js';
import { failureBrief } from './failure-brief.js';
import { preflightRepo } from './preflight-repo.js';
import { readRepoSettings } from './read-repo-settings.js';
import { readWorkOrder, type LoadedWorkOrder } from './read-work-order.js';
import type { AttemptContext } from './run-attempt.js';
import { runAttempts } from './run-attempts.js';
import type { RunSummary } from './types.js';

export interface WorkOrderOptions {
  repo: string;
  workOrderFile: string;
  out: string;
  maxAttempts: number;
  model?: string;
  temperature: number;
  timeoutSeconds: number;
  /** `none` only when the user typed `--sandbox none`. */
  sandbox?: SandboxMode;
}

export interface WorkOrderDeps {
  settings: Settings;
  log: Logger;
  progress: (text: string) => void;
}

export interface WorkOrderReport {
  verdict: 'PASS' | 'FAIL';
  runId: string;
  summaryPath: string;
  /** The run stopped at preflight (not a git repository, dirty tree): a setup problem. */
  preflightFailed: boolean;
}

function assertOutsideRepo(repo: string, out: string): void {
  const rel = relative(repo, out);
  if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel)))
    throw new AutofixError(
      'CONFIG_INVALID',
      `--out ${out} is inside the repository; put the artifacts elsewhere (a failed attempt runs \`git clean -fd\`, and the tree must be clean)`,
    );
}

/** The baseline commit, or the preflight's refusal (a setup problem, not an attempt's). */
async function preflight(
  repo: string,
): Promise<{ baselineCommit: string | null; preflightError?: AutofixError }> {
  try {
    return { baselineCommit: (await preflightRepo(repo)).baselineCommit };
  } catch (err) {
    if (!isAutofixError(err) || err.code !== 'CONFIG_INVALID') throw err;
    return { baselineCommit: null, preflightError: err };
  }
}

/** The run's summary before any attempt: FAIL until one passes; its id follows from the inputs. */
function newRunSummary(
  options: WorkOrderOptions,
  run: { work: LoadedWorkOrder; repo: string; baselineCommit: string | null; model: string },
): RunSummary {
  const { work, repo, baselineCommit, model } = run;
  const runId = runIdFor(
    {
      work_order_sha256: work.sha256,
      repo,
      baseline_commit: baselineCommit,
      model,
      temperature: options.temperature,
      max_attempts: options.maxAttempts,
      timeout_seconds: options.timeoutSeconds,
    },
    'run',
  );
  return {
    run_id: runId,
    work_order_id: work.order.id,
    work_order_sha256: work.sha256,
    verdict: 'FAIL',
    repo,
    baseline_commit: baselineCommit,
    max_attempts: options.maxAttempts,
    llm_model: model,
    llm_temperature: options.temperature,
    timeout_seconds: options.timeoutSeconds,
    verify_commands: [],
    attempts: [],
    repo_tree_hash_after: null,
    failure_brief: null,
  };
}

/** What every attempt works with: the repository's settings, the checked sandbox, the LLM. */
async function attemptContext(
  options: WorkOrderOptions,
  deps: WorkOrderDeps,
  run: {
    repo: string;
    baselineCommit: string;
    work: LoadedWorkOrder;
    model: string;
    runLog: RunLog;
    redact: Redactor;
  },
  summary: RunSummary,
): Promise<AttemptContext> {
  const { settings } = deps;
  const { repo, baselineCommit, work, model, runLog, redact } = run;
  const repoSettings = await readRepoSettings(repo);
  summary.verify_commands = repoSettings.verify;
  const sandbox = withRepoSandbox(cliSandbox(settings, options.sandbox), repoSettings.sandbox);
  await checkSandbox(sandbox, undefined, '--sandbox none');
  return {
    repo,
    baselineCommit,
    work,
    agent: await loadModeAgent('work-order'),
    editFormatInstructions: await loadEditFormatInstructions('json-writes'),
    llm: createConfiguredLlm(settings, { redact, log: deps.log }),
    model,
    temperature: options.temperature,
    maxAttempts: options.maxAttempts,
    // allowed_files are enforced exactly, as the edit engine's `scope` (run-attempt.ts).
    policy: pathPolicy({ protectedPaths: repoSettings.protectedPaths }),
    verify: repoSettings.verify,
    commands: {
      repo,
      timeoutMs: options.timeoutSeconds * 1000,
      redact,
      sandbox,
      home: await modeHome(settings.workdir, repo),
      envPassthrough: repoSettings.envPassthrough,
      runLog,
    },
    runLog,
    redact,
  };
}

export async function runWorkOrder(
  options: WorkOrderOptions,
  deps: WorkOrderDeps,
): Promise<WorkOrderReport> {
  const work = await readWorkOrder(options.workOrderFile);
  const { settings } = deps;
  requireSettings(settings, 'llm');
  const repo = resolve(options.repo);
  const out = resolve(options.out);
  assertOutsideRepo(repo, out);
  const model = options.model ?? settings.model;
  const redact = createRedactor(settings.secrets);
  const { baselineCommit, preflightError } = await preflight(repo);
  const summary = newRunSummary(options, { work, repo, baselineCommit, model });
  const runDir = join(out, summary.run_id);
  // Same inputs, same id: a rerun replaces the earlier run's artifacts rather than mixing with them.
  await rm(runDir, { recursive: true, force: true });
  const runLog = createRunLog(runDir, redact);
  const finish = (preflightFailed: boolean): WorkOrderReport => ({
    verdict: summary.verdict,
    runId: summary.run_id,
    summaryPath: runLog.json('run_summary.json', summary),
    preflightFailed,
  });
  if (preflightError || baselineCommit === null) {
    summary.failure_brief = failureBrief('preflight', {
      text: preflightError?.message ?? 'no baseline commit',
    });
    return finish(true);
  }

  try {
    const run = { repo, baselineCommit, work, model, runLog, redact };
    const ctx = await attemptContext(options, deps, run, summary);
    // The CLI asks for at least one attempt; none at all is a FAIL without a brief, as before.
    if (options.maxAttempts >= 1) await runAttempts(ctx, summary, deps.progress);
  } catch (err) {
    // Our own failure, not an attempt's (git, config, files): on record, then reported by the caller.
    summary.failure_brief = failureBrief('exception', {
      text: err instanceof Error ? err.message : String(err),
    });
    finish(false);
    throw err;
  }
  return finish(false);
}
