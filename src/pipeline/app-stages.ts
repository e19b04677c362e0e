/**
 * The app's stage processors (contract: src/queue/types.ts): the same stage functions as
 * `autofix run`, each in its own BullMQ job with its own workspace, token and LLM client.
 * Stage outputs travel as JSON in the job; the code stage pushes its branch, so the PR stage
 * needs no filesystem.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FixPlan, TriageResult } from '../contracts.js';
import { detectStyle } from '../context/detect-style.js';
import {
  checkSandbox,
  operatorSandbox,
  passthroughValues,
  withRepoSandbox,
} from '../exec/index.js';
import { prepareBranch } from '../git/branch.js';
import { DEFAULT_BOT_IDENTITY } from '../git/identity.js';
import { pushBranch } from '../git/push.js';
import { rollbackWorkspace } from '../git/rollback.js';
import { closeWorkspace, openWorkspace } from '../git/workspace.js';
import {
  createOrUpdatePullRequest,
  requestReviewOfFeedbackCommit,
  shouldOpenAsDraft,
} from '../github/pull-request.js';
import { cloneUrlHost } from '../github/repo-url.js';
import { feedbackOf } from '../queue/run-addressing.js';
import type { RunFailedHook, RunJobData, StageProcessors } from '../queue/types.js';
import { pruneOlderThan, RUN_LOG_MAX_AGE_MS } from '../artifacts/prune.js';
import { createRunLog } from '../artifacts/run-log.js';
import { toCodeOutput, type CodeOutput } from './app/code-output.js';
import { resumeCode } from './app/resume-code.js';
import {
  issueInput,
  modelFor,
  stageLlm,
  stagePorts,
  usageAfter,
  withStageWorkspace,
  type AppStageDeps,
} from './app/stage-io.js';
import { createCodeWorkspace, repoPathPolicy } from './code/code-workspace.js';
import { runCodeAgent } from './code/run-code-agent.js';
import { commitChange, planPathCheck } from './commit-change.js';
import { runPlanner } from './plan/run-planner.js';
import { prepareContext } from './prepare-context.js';
import { readGuidanceAtBase } from './read-guidance.js';
import { writePullRequest } from './pr/write-pull-request.js';
import { runTriage } from './triage/run-triage.js';
import { validationLogWriter } from './validation-log.js';

export type { AppStageDeps } from './app/stage-io.js';

/** `/autofix fresh`: start over from the base, replacing the branch an earlier run left. */
function startsFresh(job: RunJobData): boolean {
  return job.trigger.kind === 'issue-comment' && job.trigger.fresh === true;
}

export function createStageProcessors(deps: AppStageDeps): StageProcessors {
  const sandbox = deps.sandbox ?? operatorSandbox(deps.settings);
  return {
    triage: async (job, ctx) => {
      const llm = stageLlm(job, 'triage', deps);
      let baseCommit = '';
      let guidance: string | undefined;
      const triage = await withStageWorkspace(
        job,
        ctx,
        deps,
        job.config,
        async (ws, _token, readOverride) => {
          baseCommit = ws.base_commit;
          guidance = await readGuidanceAtBase(ws);
          const issue = { ...issueInput(job), ...(guidance ? { guidance } : {}) };
          const context = await prepareContext(ws, issue);
          const ports = stagePorts(ctx, llm, readOverride);
          return runTriage(
            { issue, context, config: job.config, model: modelFor(job, deps.settings, 'triage') },
            ports,
          );
        },
      );
      return {
        kind: 'continue',
        output: triage,
        status: { risk: triage.risk, summary: triage.summary, usage: usageAfter(job, llm) },
        pins: { baseCommit, ...(guidance ? { guidance } : {}) },
      };
    },

    plan: async (job, ctx) => {
      const llm = stageLlm(job, 'plan', deps);
      const triage = job.outputs.triage as TriageResult;
      const plan = await withStageWorkspace(
        job,
        ctx,
        deps,
        job.config,
        async (ws, _token, readOverride) => {
          const issue = issueInput(job);
          const context = await prepareContext(ws, issue);
          const ports = stagePorts(ctx, llm, readOverride);
          const policy = repoPathPolicy(job.config);
          const planned = await runPlanner(
            {
              issue,
              triage,
              context,
              config: job.config,
              model: modelFor(job, deps.settings, 'plan'),
              exists: (path) => existsSync(join(ws.worktree, path)),
              checkPaths: planPathCheck(ws, policy),
            },
            ports,
          );
          // Feedback on the bot's PR: new commits go on the PR's branch; a fresh start replaces
          // the open PR's branch, so the PR stays the one PR of the issue.
          const feedback = feedbackOf(job);
          if (feedback) return { ...planned, branch_name: feedback.branch };
          if (job.trigger.kind === 'issue-comment' && job.trigger.replaceBranch)
            return { ...planned, branch_name: job.trigger.replaceBranch };
          return planned;
        },
      );
      return {
        kind: 'continue',
        output: plan,
        status: {
          planSteps: plan.plan_steps.map((s) => s.description),
          files: plan.file_changes.map((c) => ({
            path: c.path,
            operation: c.operation.toLowerCase(),
          })),
          usage: usageAfter(job, llm),
        },
      };
    },

    code: async (job, ctx) => {
      const llm = stageLlm(job, 'code', deps);
      const plan = job.outputs.plan as FixPlan;
      const issue = issueInput(job);
      const output = await withStageWorkspace(
        job,
        ctx,
        deps,
        job.config,
        async (ws, token, readOverride) => {
          // Before any token is spent: no repository code will run without the sandbox.
          await checkSandbox(withRepoSandbox(sandbox, job.config.sandbox));
          // The repository's own secrets handed to its commands are masked like ours.
          deps.redact.add(...passthroughValues(job.config.env_passthrough));
          try {
            const feedback = feedbackOf(job) !== undefined;
            const branch = await prepareBranch(ws, {
              name: plan.branch_name,
              issue: issue.number,
              identity: DEFAULT_BOT_IDENTITY,
              mustExist: feedback,
              resumeRun: job.runId,
              existing: feedback ? 'extend' : startsFresh(job) ? 'replace' : 'replace-bot-only',
              startOverHint: `Comment \`${job.config.command} fresh\` to start over from ${job.repository.defaultBranch} and replace it.`,
            });
            if (branch.resumed) return resumeCode(ws, branch, ctx.checkpoint.saved);
            const codeWs = createCodeWorkspace(ws, job.config, {
              sandbox,
              redact: deps.redact,
              signal: ctx.signal,
              logger: ctx.log,
            });
            const samples = await Promise.all(
              plan.file_changes.slice(0, 5).map((c) => codeWs.readFile(c.path)),
            );
            const style = await detectStyle(
              ws.worktree,
              samples.filter((s): s is string => s !== undefined),
            );
            const context = await prepareContext(ws, issue);
            // The worker keeps each run's validation logs (named in failure comments) for 14 days.
            await pruneOlderThan(join(deps.settings.workdir, 'runs'), RUN_LOG_MAX_AGE_MS, {
              log: ctx.log,
            });
            let logs = 0;
            const code = await runCodeAgent(
              {
                issue,
                plan,
                config: job.config,
                model: modelFor(job, deps.settings, 'code'),
                style,
                codeContext: context.codeContext,
              },
              {
                ...stagePorts(ctx, llm, readOverride),
                workspace: codeWs,
                onValidation: validationLogWriter(
                  createRunLog(join(deps.settings.workdir, 'runs', job.runId), deps.redact),
                  () => (logs += 1),
                  deps.settings.workdir,
                ),
              },
            );
            const commit = await commitChange(ws, {
              issue,
              plan,
              code,
              identity: DEFAULT_BOT_IDENTITY,
              logger: ctx.log,
              runId: job.runId,
            });
            const output = toCodeOutput(commit, code, {
              name: branch.name,
              remoteShaBefore: branch.remoteShaBefore,
              pushedSha: commit.sha,
            });
            if (branch.replaced) {
              output.code.warnings = [
                ...output.code.warnings,
                `Started over from ${job.repository.defaultBranch}: the branch \`${branch.name}\` (was ${branch.replaced.slice(0, 12)}, an earlier run's) is replaced by this run's commit.`,
              ];
            }
            // Before the push: a retry after a push that outlived its job goes on from here.
            await ctx.checkpoint.save(output);
            await pushBranch(ws, { token, logger: ctx.log });
            return output;
          } catch (err) {
            const report = await rollbackWorkspace(ws, { token, logger: ctx.log });
            if (report.problems.length > 0)
              ctx.log.warn({ problems: report.problems }, 'rollback incomplete');
            throw err;
          }
        },
      );
      return {
        kind: 'continue',
        output,
        status: {
          files: output.code.changes.map((c) => ({ path: c.path, operation: c.operation })),
          validation: output.code.validation.map((v) => ({
            command: v.command,
            exitCode: v.exit_code,
            durationMs: v.duration_ms,
            timedOut: v.timed_out,
          })),
          ...(output.code.warnings.length > 0 ? { warnings: output.code.warnings } : {}),
          ...(output.code.repairs > 0 ? { repairs: output.code.repairs } : {}),
          usage: usageAfter(job, llm),
        },
      };
    },

    pr: async (job, ctx) => {
      const { commit, code } = job.outputs.code as CodeOutput;
      const feedback = feedbackOf(job);
      if (feedback) {
        const { prNumber } = feedback;
        const pr = await requestReviewOfFeedbackCommit(
          ctx.octokit,
          { owner: job.repository.owner, repo: job.repository.name },
          prNumber,
          job.sender,
          ctx.log,
        );
        if (!pr) {
          return {
            kind: 'stop',
            reason: `Pull request #${prNumber} is no longer open; the new commit is on \`${commit.branch}\`.`,
          };
        }
        return {
          kind: 'continue',
          output: pr,
          status: { pr: { number: pr.number, url: pr.url, draft: pr.draft } },
        };
      }
      const llm = stageLlm(job, 'pr', deps);
      const triage = job.outputs.triage as TriageResult;
      const plan = job.outputs.plan as FixPlan;
      const usage = usageAfter(job, llm);
      const text = await writePullRequest(
        {
          issue: issueInput(job),
          triage,
          plan,
          code,
          commit,
          model: modelFor(job, deps.settings, 'pr'),
          usage,
          runId: job.runId,
          ...(cloneUrlHost(job.repository.cloneUrl)
            ? { githubHost: cloneUrlHost(job.repository.cloneUrl)! }
            : {}),
        },
        { llm, log: ctx.log, signal: ctx.signal },
      );
      const pr = await createOrUpdatePullRequest(
        ctx.octokit,
        { owner: job.repository.owner, repo: job.repository.name },
        {
          branch: commit.branch,
          base: job.repository.defaultBranch,
          title: text.title,
          body: text.body,
          draft: shouldOpenAsDraft(job.config.draft_prs, triage.risk),
          labels: job.config.labels,
          reviewer: job.sender,
        },
        ctx.log,
      );
      return {
        kind: 'continue',
        output: pr,
        status: {
          pr: { number: pr.number, url: pr.url, draft: pr.draft },
          usage: usageAfter(job, llm),
        },
      };
    },
  };
}

/**
 * A run that fails after the code stage pushed (in the PR stage) leaves a branch on the remote:
 * put it back where it was (deleted when this run created it) with the same rollback the code
 * stage uses, which leaves the branch alone if someone else moved it since. The code stage rolls
 * back its own failures before it throws.
 */
export function createRunFailedHook(deps: AppStageDeps): RunFailedHook {
  return async (job, failure, ctx) => {
    // After the code stage, or during it: an attempt that saved its output and pushed, then died.
    const saved = job.checkpoint?.stage === 'code' ? job.checkpoint.value : undefined;
    const code = (job.outputs.code ?? saved) as CodeOutput | undefined;
    if (!code?.branch.pushedSha) return;
    const token = await ctx.getInstallationToken();
    deps.redact.add(token);
    const ws = await openWorkspace({
      workdir: deps.settings.workdir,
      repo: job.repository.fullName,
      remoteUrl: job.repository.cloneUrl,
      baseBranch: job.repository.defaultBranch,
      branchPrefix: job.config.branch_prefix,
      jobId: `${job.runId}-rollback`,
      token,
      logger: ctx.log,
    });
    try {
      ws.branch = { ...code.branch, issue: job.issue.number };
      const report = await rollbackWorkspace(ws, { token, logger: ctx.log });
      ctx.log.info(
        { runId: job.runId, stage: failure.stage, ...report },
        'rolled back the pushed branch',
      );
    } finally {
      await closeWorkspace(ws, ctx.log).catch(() => undefined);
    }
  };
}
