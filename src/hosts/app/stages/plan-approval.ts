/**
 * Plan approval (`plan_approval`): after the plan stage, a run that needs approval gets its plan
 * posted on its conversation (once per plan round: a retry finds the comment it posted) and parks
 * there until a maintainer answers `approve` or `plan <changes>` (intake/admit-run-command.ts).
 */
import type { FixPlan } from '../../../contracts.js';
import type { InstallationAuth } from '../../../github/installation-auth.js';
import { postOnce } from '../../../github/post-once.js';
import { planCommentMarker, renderPlanComment } from '../../../github/render-plan-comment.js';
import type { Logger } from '../../../logger.js';
import { needsPlanApproval } from '../../../runs/needs-plan-approval.js';
import type { ParkPolicy } from '../../../scheduler/stage-runtime.js';
import { cloneUrlHost } from '../../../text/repo-url.js';

export interface PlanApprovalDeps {
  auth: InstallationAuth;
  log: Logger;
  /** Redacts secrets from what is posted. */
  redact: (text: string) => string;
}

/** What the status comment says while the run waits. */
export function awaitingApprovalMessage(command: string): string {
  return (
    'Waiting for approval of the plan (posted in its own comment): a user with write access comments ' +
    `\`${command} approve\` to go on, or \`${command} plan <changes>\` to have it planned again.`
  );
}

export function planApprovalPolicy(deps: PlanApprovalDeps): ParkPolicy {
  return async (run, stage, output) => {
    const triage = run.outputs.triage;
    if (stage !== 'plan' || !triage) return undefined;
    const plan = output as FixPlan;
    if (!needsPlanApproval(run.config, triage, plan)) return undefined;
    const { octokit } = await deps.auth(run.installationId);
    const repo = { owner: run.repository.owner, repo: run.repository.name };
    // Each resumption starts a new round: a re-plan's comment is a new one.
    const marker = planCommentMarker(run.runId, run.resumes.length);
    const host = cloneUrlHost(run.repository.cloneUrl);
    const body = renderPlanComment({
      marker,
      triage,
      plan,
      command: run.config.command,
      repo,
      ...(host ? { githubHost: host } : {}),
    });
    const log = deps.log.child({ runId: run.runId });
    const since = run.acceptedAt - 60_000;
    const target = { repo, issueNumber: run.facts.conversation, marker, since };
    await postOnce(octokit, target, deps.redact(body), log);
    return { reason: 'plan-approval', message: awaitingApprovalMessage(run.config.command) };
  };
}
