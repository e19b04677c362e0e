/**
 * A stage job's view of the run's status comment: versions it submits are ordered by stage,
 * attempt and sequence, and published in the background (status-publisher.ts): no stage waits for
 * an edit, and a later stage's edit is never overwritten by this one's.
 */
import { addReaction } from '../../github/reactions.js';
import type { InstallationClient } from '../../github/installation-auth.js';
import type { StatusComment } from '../../github/status-comment.js';
import { statusCommentFor } from '../../runs/end-run.js';
import { reactionTargetOf, repoOf, stagesOf } from '../../runs/run-addressing.js';
import { runKeyOf } from '../../runs/run-registry.js';
import { statusRevision } from '../../runs/status-publisher.js';
import { STAGES } from '../../runs/types.js';
import type { JobGate } from './job-gate.js';

export interface StageStatus {
  comment: StatusComment;
  /** Submits the comment as it is now; never waits. */
  show: () => void;
}

export function stageStatus(gate: JobGate, client: InstallationClient): StageStatus {
  const { rt, stage, attempt, log } = gate;
  const data = gate.run;
  const comment = statusCommentFor(data, client, log, rt.runPage?.urlOf(data));
  let seq = 0;
  const show = (): void =>
    rt.status.submit({
      runId: data.runId,
      rev: statusRevision(STAGES.indexOf(stage), attempt, ++seq),
      body: comment.render(),
      startedAt: data.acceptedAt,
      target: comment.target(),
      ...(data.statusCommentId === undefined ? {} : { commentId: data.statusCommentId }),
    });
  return { comment, show };
}

/** The stage shows as running, the run's first job adds 👀, and the issue lock is renewed. */
export async function announceStage(
  gate: JobGate,
  client: InstallationClient,
  status: StageStatus,
): Promise<void> {
  const { rt, stage, attempt, log } = gate;
  const data = gate.run;
  status.comment.setStage(stage, { state: 'running' });
  status.show();
  if (stage === stagesOf(data)[0] && attempt === 1) {
    void addReaction(client.octokit, repoOf(data), reactionTargetOf(data), 'eyes').catch(
      (err: unknown) => log.warn({ err }, 'could not add the 👀 reaction'),
    );
  }
  await rt.registry
    .refresh(runKeyOf(data), data.runId)
    .catch((err: unknown) => log.warn({ err }, 'could not refresh the issue lock'));
}
