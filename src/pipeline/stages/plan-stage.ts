/** Plan: the steps, the files and the branch name; protected or out-of-scope paths end the run. */
import type { FixPlan } from '../../contracts.js';
import { openRepoFiles } from '../../repo-files/open-repo-files.js';
import { repoPathPolicy } from '../code/code-workspace.js';
import { planPathCheck } from '../commit-change.js';
import { runPlanner } from '../plan/run-planner.js';
import { earlier, issueOf, signalOf, type StageEnv } from './stage-env.js';
import type { StageResult } from './stage-fn.js';

export async function planStage(env: StageEnv): Promise<StageResult<FixPlan>> {
  const { facts } = env;
  const triage = earlier(env, 'triage');
  const planned = await env.workspace(async (ws, io) => {
    const issue = issueOf(env);
    return runPlanner(
      {
        issue,
        triage,
        context: await env.context(ws, issue),
        config: facts.config,
        model: env.model('plan'),
        // Anything there, a dangling link included (`existsSync` follows links).
        exists: (path) => openRepoFiles(ws.worktree).entryKind(path) !== undefined,
        checkPaths: planPathCheck(ws, repoPathPolicy(facts.config)),
        // Re-planned on a maintainer's words: they change the plan the run kept.
        ...(facts.planNotes ? { planNotes: facts.planNotes } : {}),
        ...(facts.planNotes && env.outputs.plan ? { previousPlan: env.outputs.plan } : {}),
      },
      { llm: env.llm, log: env.log, readOverride: io.readOverride, ...signalOf(env) },
    );
  });
  // New commits of a feedback run go on the PR's branch; a fresh start replaces the earlier
  // run's branch (its PR stays the issue's one PR).
  const branch = facts.feedback?.branch ?? facts.replaceBranch;
  return { kind: 'continue', output: branch ? { ...planned, branch_name: branch } : planned };
}
