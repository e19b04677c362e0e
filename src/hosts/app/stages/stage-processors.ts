/**
 * The BullMQ adapter of the stage table (contract: src/runs/types.ts): each stage of `PIPELINE`
 * runs in its own job, with its own workspace (pinned to the base commit triage saw), token and
 * LLM client; outputs travel typed, as JSON, in the job. The code stage keeps its commit on the
 * run's private ref; the `pr` stage publishes it and opens the PR.
 */
import { join } from 'node:path';
import type { StageName, StageOutputMap } from '../../../contracts.js';
import { pruneOlderThan, RUN_LOG_MAX_AGE_MS } from '../../../artifacts/prune.js';
import { createRunLog } from '../../../artifacts/run-log.js';
import { operatorSandbox } from '../../../exec/index.js';
import { jobPaths } from '../../../git/job-paths.js';
import { publishCheckRun } from '../../../github/check-run.js';
import {
  createOrUpdatePullRequest,
  requestReviewOfFeedbackCommit,
  shouldOpenAsDraft,
} from '../../../github/pull-request.js';
import { prepareContext } from '../../../pipeline/prepare-context.js';
import type {
  PullRequestOpened,
  PullRequestRequest,
  StageEnv,
} from '../../../pipeline/stages/stage-env.js';
import type { StageTable } from '../../../pipeline/stages/stage-fn.js';
import { PIPELINE } from '../../../pipeline/stages/stage-table.js';
import { validationLogWriter } from '../../../pipeline/validation-log.js';
import {
  type RunJobData,
  type StageContext,
  type StageOutcome,
  type StageProcessor,
  type StageProcessors,
} from '../../../runs/types.js';
import { runFactsFor } from './run-facts.js';
import {
  modelFor,
  stageLlm,
  stageUsage,
  usageAfter,
  withStageWorkspace,
  type AppStageDeps,
} from './stage-io.js';
import { statusOfStage } from '../../../runs/status-of-stage.js';
import { jobIdFor } from '../../../runs/run-addressing.js';

import { discardRunHandOffs } from './setup-handoff.js';

export type { AppStageDeps } from './stage-io.js';

/** The app's PR port: open or update the PR, or ask for review of a feedback commit. */
function pullRequestOpener(
  job: RunJobData,
  ctx: StageContext,
): (request: PullRequestRequest) => Promise<PullRequestOpened> {
  const repo = { owner: job.repository.owner, repo: job.repository.name };
  return async (request) => {
    const feedback = job.facts.feedback;
    if (feedback) {
      const pr = await requestReviewOfFeedbackCommit(
        ctx.octokit,
        repo,
        feedback.prNumber,
        // A CI round was asked for by nobody: the PR's reviewers see its commit as it is.
        job.trigger.kind === 'ci-failure' ? undefined : job.sender,
        ctx.log,
      );
      if (!pr) {
        return {
          kind: 'closed',
          reason: `Pull request #${feedback.prNumber} is no longer open; the new commit is on \`${request.branch}\`.`,
        };
      }
      return { kind: 'open', pr: { number: pr.number, url: pr.url, draft: pr.draft } };
    }
    const pr = await createOrUpdatePullRequest(
      ctx.octokit,
      repo,
      {
        branch: request.branch,
        base: job.repository.defaultBranch,
        title: request.text?.title ?? '',
        body: request.text?.body ?? '',
        draft: shouldOpenAsDraft(job.config.draft_prs, request.triage.risk),
        labels: job.config.labels,
        reviewer: job.sender,
      },
      ctx.log,
    );
    return { kind: 'open', pr: { number: pr.number, url: pr.url, draft: pr.draft } };
  };
}

/** The worker keeps each run's validation logs (named in failure comments) for 14 days. */
function validationLogs(
  job: RunJobData,
  deps: AppStageDeps,
  ctx: StageContext,
): Pick<StageEnv, 'onValidation' | 'beforeCode'> {
  let logs = 0;
  const runs = join(deps.settings.workdir, 'runs');
  return {
    onValidation: validationLogWriter(
      createRunLog(join(runs, job.runId), deps.redact),
      () => (logs += 1),
      deps.settings.workdir,
    ),
    beforeCode: async () => {
      await pruneOlderThan(runs, RUN_LOG_MAX_AGE_MS, { log: ctx.log });
    },
  };
}

function stageProcessor<S extends StageName>(
  stage: S,
  table: StageTable,
  deps: AppStageDeps,
): StageProcessor<S> {
  const sandbox = deps.sandbox ?? operatorSandbox(deps.settings);
  return async (job, ctx): Promise<StageOutcome<StageOutputMap[S]>> => {
    const llm = stageLlm(job, stage, deps, ctx.llmGuards);
    const env: StageEnv = {
      facts: runFactsFor(job, deps.runPage?.urlOf(job)),
      pins: job.pins ?? {},
      outputs: job.outputs,
      llm,
      model: (s) => modelFor(job, deps.settings, s),
      usage: () => usageAfter(job, llm),
      log: ctx.log,
      signal: ctx.signal,
      workspace: (fn) => withStageWorkspace(job, ctx, deps, fn),
      context: (ws, issue) => prepareContext(ws, issue),
      checkpoint: ctx.checkpoint,
      sandbox,
      redact: deps.redact,
      ...(stage === 'code' ? validationLogs(job, deps, ctx) : {}),
      openPullRequest: pullRequestOpener(job, ctx),
      publishVerdict: async (verdict) => {
        await publishCheckRun(
          ctx.octokit,
          { owner: job.repository.owner, repo: job.repository.name },
          {
            ...verdict,
            repo: { owner: job.repository.owner, repo: job.repository.name },
            // Commands ran in the code stage's worktree (unless the verdict names its own): its
            // paths in their output are made relative.
            worktree:
              verdict.worktree ??
              jobPaths(deps.settings.workdir, jobIdFor(job.runId, 'code'), job.repository.fullName)
                .worktree,
          },
          ctx.log,
          deps.settings.appId ? { appId: Number(deps.settings.appId) } : {},
        );
      },
    };
    let result;
    try {
      result = await table[stage](env);
    } finally {
      const { usage, models } = stageUsage(llm);
      ctx.recordUsage(usage, models);
    }
    // The run stops or waits here: what a stage handed on for a later one is not kept.
    if (result.kind !== 'continue')
      await discardRunHandOffs(job, deps.settings.workdir).catch(() => undefined);
    if (result.kind === 'stop') return { kind: 'stop', reason: result.reason };
    const usage = { usage: usageAfter(job, llm) };
    if (result.kind === 'park') {
      const done = result.output === undefined ? {} : statusOfStage(stage, result.output);
      return { ...result, status: { ...done, ...usage } };
    }
    return {
      kind: 'continue',
      output: result.output,
      status: { ...statusOfStage(stage, result.output), ...usage },
      ...(result.pins ? { pins: result.pins } : {}),
    };
  };
}

export function createStageProcessors(
  deps: AppStageDeps,
  table: StageTable = PIPELINE,
): StageProcessors {
  return {
    triage: stageProcessor('triage', table, deps),
    plan: stageProcessor('plan', table, deps),
    reproduce: stageProcessor('reproduce', table, deps),
    code: stageProcessor('code', table, deps),
    pr: stageProcessor('pr', table, deps),
    verify: stageProcessor('verify', table, deps),
  };
}
