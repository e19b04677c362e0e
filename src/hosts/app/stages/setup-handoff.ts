/**
 * Setup once per run in the app (issue #38): each stage works in its own worktree, so a stage
 * that set up hands what it installed to the run's next stage that sets up
 * (exec/setup-cache/handoff.ts), before its worktree is closed. A hand-off nobody will take (the
 * run stopped, parked or failed; a stage that did not set up) is removed.
 */
import { nextSetupStageOn, SETUP_STAGES, type StageName } from '../../../contracts.js';
import { discardHandOff, handOffSetup } from '../../../exec/index.js';
import type { Workspace } from '../../../git/workspace.js';
import type { Logger } from '../../../logger.js';
import { jobIdFor, routeOfFacts } from '../../../runs/run-addressing.js';
import type { RunJobData } from '../../../runs/types.js';

/** After the stage's work: hands its setup on, or removes what was handed to it and not taken. */
export async function handSetupOn(
  ws: Workspace,
  job: RunJobData,
  stage: StageName,
  log: Logger,
): Promise<void> {
  if (!SETUP_STAGES.includes(stage)) return;
  await discardHandOff(ws.workdir, ws.repo, jobIdFor(job.runId, stage));
  const next = nextSetupStageOn(routeOfFacts(job.facts), stage);
  if (!next) return;
  const r = await handOffSetup(ws, jobIdFor(job.runId, next));
  if (r.handed) log.info({ key: r.key, paths: r.paths, ms: r.ms, to: next }, 'setup handed on');
  else log.debug({ reason: r.reason, to: next }, 'setup not handed on');
}

/** The run ended (stopped, parked, failed): what its stages handed on and nobody took goes. */
export async function discardRunHandOffs(job: RunJobData, workdir: string): Promise<void> {
  for (const stage of SETUP_STAGES)
    await discardHandOff(workdir, job.repository.fullName, jobIdFor(job.runId, stage));
}
