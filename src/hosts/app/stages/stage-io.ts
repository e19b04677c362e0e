/**
 * What every app stage needs around the stage functions: an LLM client whose budget is what the
 * run has left, a workspace of the repository opened with a freshly minted installation token,
 * and the repository's agent overrides read at the base.
 */
import type { RunPageLinks } from '../../../runs/run-page-link.js';
import type { Redactor } from '../../../artifacts/redact.js';
import type { Settings } from '../../../config/env.js';
import { stageModelOf } from '../../../config/repo-config.js';
import type { SandboxPolicy } from '../../../exec/index.js';
import { checkoutBranchTip } from '../../../git/branch.js';
import {
  closeWorkspaceLater,
  openWorkspace,
  type Workspace,
  type WorkspaceOptions,
} from '../../../git/workspace.js';
import { createConfiguredLlm } from '../../../llm/create-configured-llm.js';
import type { LlmClient } from '../../../llm/create-llm-client.js';
import type { OverrideReader } from '../../../llm/load-agent.js';
import type { Logger } from '../../../logger.js';
import { snapshotOverrides } from '../../../pipeline/snapshot-overrides.js';
import type { AppMetrics } from '../../../scheduler/metrics.js';
import type { RunJobData, StageContext, StageName } from '../../../runs/types.js';
import type { Run, RunUsage } from '../../../runs/run-record.js';
import { jobIdFor } from '../../../runs/run-addressing.js';
import { handSetupOn } from './setup-handoff.js';

export interface AppStageDeps {
  settings: Settings;
  log: Logger;
  metrics: AppMetrics;
  redact: Redactor;
  /** The operator's sandbox (`serve`/`worker` build it once and self-test it at start). */
  sandbox?: SandboxPolicy;
  /**
   * Scrubbed worktrees parked per repository for later jobs (src/git/worktree-pool.ts): a warm
   * job then rewrites only what changed instead of checking out every file (bench:workspace).
   * Default 2, the default code-stage concurrency; 0 removes every worktree when its job ends.
   */
  recycleWorktrees?: number;
  /** The run page's signed links (PUBLIC_URL set): the PR body names the run's page. */
  runPage?: Pick<RunPageLinks, 'urlOf'>;
}

export function modelFor(job: RunJobData, settings: Settings, stage: StageName): string {
  return stageModelOf(job.config.models, stage, settings.model);
}

/** An LLM client for one stage: the run's remaining budget, tokens counted into /metrics. */
export function stageLlm(
  job: Run,
  stage: StageName,
  deps: AppStageDeps,
  guards?: StageContext['llmGuards'],
): LlmClient {
  const used = job.usage.totalTokens;
  const llm = createConfiguredLlm(deps.settings, {
    budget: Math.max(1, job.config.token_budget - used),
    ...(guards ? { spendGuard: guards.spendGuard, journal: guards.journal } : {}),
    redact: deps.redact,
    log: deps.log,
    onTranscript: (entry) => {
      if (!entry.usage) return;
      deps.metrics.llmTokens.inc(
        { stage, model: entry.model, kind: 'prompt' },
        entry.usage.promptTokens,
      );
      deps.metrics.llmTokens.inc(
        { stage, model: entry.model, kind: 'completion' },
        entry.usage.completionTokens,
      );
    },
  });
  return llm;
}

/** What the stage's calls used so far, as the run record counts it. */
export function stageUsage(llm: LlmClient): { usage: RunUsage; models: string[] } {
  const records = llm.usage.records();
  const totals = llm.usage.totals();
  return {
    usage: {
      promptTokens: totals.promptTokens,
      completionTokens: totals.completionTokens,
      totalTokens: totals.totalTokens,
      costUsd: totals.cost,
      unpricedCalls: records.filter((r) => !r.priced).length,
      maxCallCostUsd: records.reduce((max, r) => Math.max(max, r.cost), 0),
    },
    models: [...new Set(records.map((r) => r.model))],
  };
}

/** The run's usage after this stage, for the status comment (and the next stage's budget). */
export function usageAfter(job: Run, llm: LlmClient): { totalTokens: number; costUsd: number } {
  const totals = llm.usage.totals();
  return {
    totalTokens: job.usage.totalTokens + totals.totalTokens,
    costUsd: job.usage.costUsd + totals.cost,
  };
}

/**
 * Triage fetches (it pins the base); the code stage fetches to see the bot branch as it is now;
 * triage and plan of a feedback run read the PR branch, so they fetch too. The other stages work
 * from the pinned base (and the kept commit) that this worker usually has already.
 */
function fetchPolicy(job: RunJobData, stage: StageName): 'always' | 'if-missing' {
  // `verify` reads the PR's head as the remote has it now.
  if (stage === 'triage' || stage === 'code' || stage === 'verify') return 'always';
  return stage === 'plan' && job.facts.feedback ? 'always' : 'if-missing';
}

/** A workspace of the run's repository for one job of the run (`jobId`: its directory). */
export function runWorkspaceOptions(
  job: RunJobData,
  deps: AppStageDeps,
  jobId: string,
  token: string,
  log: Logger,
): WorkspaceOptions {
  return {
    workdir: deps.settings.workdir,
    repo: job.repository.fullName,
    remoteUrl: job.repository.cloneUrl,
    baseBranch: job.repository.defaultBranch,
    branchPrefix: job.config.branch_prefix,
    jobId,
    token,
    logger: log,
  };
}

export async function withStageWorkspace<T>(
  job: RunJobData,
  ctx: StageContext,
  deps: AppStageDeps,
  fn: (ws: Workspace, io: { token: string; readOverride: OverrideReader }) => Promise<T>,
): Promise<T> {
  const token = await ctx.getInstallationToken();
  deps.redact.add(token);
  const ws = await openWorkspace({
    ...runWorkspaceOptions(job, deps, jobIdFor(job.runId, ctx.stage), token, ctx.log),
    recycleWorktrees: deps.recycleWorktrees ?? 2,
    ...(job.pins?.baseCommit ? { pinnedBase: job.pins.baseCommit } : {}),
    fetch: fetchPolicy(job, ctx.stage),
  });
  try {
    // Feedback on the bot's PR: triage and plan read the code the PR already has. The code stage
    // checks the branch out itself (prepareBranch), to commit on top of it.
    // The repository's prompt overrides, read at the base commit before any branch is checked
    // out: a PR branch's `.github/autofix/agents/` never steers the run.
    const readOverride = await snapshotOverrides(ws.worktree);
    const feedback = job.facts.feedback;
    if (feedback && (ctx.stage === 'triage' || ctx.stage === 'plan'))
      await checkoutBranchTip(ws, feedback.branch);
    const result = await fn(ws, { token, readOverride });
    // Before the worktree is closed: what setup installed goes to the run's next stage.
    await handSetupOn(ws, job, ctx.stage, ctx.log).catch((err: unknown) =>
      ctx.log.warn({ err: String(err) }, 'setup hand-off failed'),
    );
    return result;
  } finally {
    // Off the stage's path: parked or removed while the next stage is queued (issue #38).
    closeWorkspaceLater(ws, ctx.log);
  }
}
