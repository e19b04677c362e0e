import type { InstallationClient } from '../../github/installation-auth.js';
import type { RunUsage } from '../../runs/run-record.js';
import { createRunSpendGuard } from '../../runs/run-spend-guard.js';
import type { StageContext, StageOutputs } from '../../runs/types.js';
import type { JobGate } from './job-gate.js';
import type { StageStatus } from './stage-status.js';

/** What the stage function is handed: its client, signal, status, checkpoint and usage sink. */
export function stageContext(
  gate: JobGate,
  client: InstallationClient,
  status: StageStatus,
  signal: AbortSignal,
  recordUsage: (usage: RunUsage, models: readonly string[]) => void,
): StageContext {
  const { stage, attempt, log, rt } = gate;
  const runId = gate.run.runId;
  // Only this stage's own: a checkpoint is dropped when its stage completes.
  const kept = gate.run.checkpoint?.[stage];
  const saved: StageOutputs = kept ? { [stage]: kept } : {};
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
      // In the run's record, durable before the side effect it guards.
      save: async (value) => {
        gate.setRun(await rt.runs.update(runId, (r) => ({ ...r, checkpoint: value })));
      },
    },
    recordUsage,
    ...(rt.money
      ? {
          llmGuards: {
            spendGuard: createRunSpendGuard({
              run: gate.run,
              stage,
              caps: rt.money.caps(gate.run),
              ledger: rt.money.ledger,
            }),
            journal: rt.money.journal(runId),
          },
        }
      : {}),
  };
}
