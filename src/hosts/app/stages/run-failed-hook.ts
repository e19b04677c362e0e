/**
 * A run that fails after the code stage kept its commit: the private ref is deleted, and if the
 * publish step had moved the branch (the PR stage failed after its push), the branch is put back
 * where it was before the run (deleted when the run created it) — the same rollback the stages
 * use, which leaves a branch alone when someone else moved it since. The code stage rolls back
 * its own failures before it throws.
 */
import { closeWorkspace, openWorkspace } from '../../../git/workspace.js';
import { rollbackWorkspace } from '../../../git/rollback.js';
import type { CodeOutput } from '../../../contracts.js';
import type { RunFailedHook } from '../../../runs/types.js';
import { discardRunHandOffs } from './setup-handoff.js';
import { runWorkspaceOptions, type AppStageDeps } from './stage-io.js';

/** The code stage's output, or what an attempt of it saved before it kept its commit and died. */
function keptBy(job: Parameters<RunFailedHook>[0]): CodeOutput['branch'] | undefined {
  return (job.outputs.code ?? job.checkpoint?.code)?.branch;
}

export function createRunFailedHook(deps: AppStageDeps): RunFailedHook {
  return async (job, failure, ctx) => {
    await discardRunHandOffs(job, deps.settings.workdir).catch(() => undefined);
    const branch = keptBy(job);
    if (!branch) return;
    const token = await ctx.getInstallationToken();
    deps.redact.add(token);
    const ws = await openWorkspace(
      runWorkspaceOptions(job, deps, `${job.runId}-rollback`, token, ctx.log),
    );
    try {
      // The branch is reset only if it is at the kept commit (published); the private ref
      // deleted only if it still holds it.
      ws.branch = {
        name: branch.name,
        issue: job.issue.number,
        remoteShaBefore: branch.remoteShaBefore,
        pushedSha: branch.kept.sha,
        kept: branch.kept,
      };
      const report = await rollbackWorkspace(ws, { token, logger: ctx.log });
      ctx.log.info({ runId: job.runId, stage: failure.stage, ...report }, 'rolled back the run');
    } finally {
      await closeWorkspace(ws, ctx.log).catch(() => undefined);
    }
  };
}
