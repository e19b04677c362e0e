import type { InstallationClient } from '../../github/installation-auth.js';
import type { StageContext, StageOutputs } from '../../runs/types.js';
import type { JobGate } from './job-gate.js';
import type { StageStatus } from './stage-status.js';

/** What the stage function is handed: its client, signal, status and checkpoint. */
export function stageContext(
  gate: JobGate,
  client: InstallationClient,
  status: StageStatus,
  signal: AbortSignal,
): StageContext {
  const { job, stage, attempt, log } = gate;
  const data = job.data;
  // Only this stage's own: a checkpoint is dropped when its stage completes.
  const saved: StageOutputs = data.checkpoint?.[stage] ? { [stage]: data.checkpoint[stage] } : {};
  return {
    stage,
    attempt,
    octokit: client.octokit,
    getInstallationToken: client.getInstallationToken,
    log,
    signal,
    status: {
      current: () => status.comment.facts(),
      update: (patch) => {
        status.comment.merge(patch);
        status.show();
        return Promise.resolve();
      },
    },
    checkpoint: {
      saved,
      // job.data, not data: the status comment id may have been recorded meanwhile.
      save: (value) => job.updateData({ ...job.data, checkpoint: value }),
    },
  };
}
