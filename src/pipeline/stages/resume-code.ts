/**
 * A code stage whose earlier attempt kept its commit and then died (worker killed, Redis gone
 * before the job completed) goes on from that commit instead of asking the model again: the
 * run's private ref holds it, and the output saved just before the keep (the checkpoint)
 * describes it. Without a checkpoint that matches, the output is read back from git and says
 * that the validation output was not kept (the commit was only kept after it passed).
 */
import type { CodeOutput, KeptCommit } from '../../contracts.js';
import { describeCommit } from '../../git/commit.js';
import type { PreparedBranch } from '../../git/branch.js';
import { changedFiles } from '../../git/changed-files.js';
import type { Workspace } from '../../git/workspace.js';

function savedFor(
  saved: unknown,
  branch: PreparedBranch,
  kept: KeptCommit,
): CodeOutput | undefined {
  const output = saved as Partial<CodeOutput> | undefined;
  if (!output?.branch || !output.commit || !output.code) return undefined;
  if (output.branch.name !== branch.name || output.branch.kept?.sha !== kept.sha) return undefined;
  return output as CodeOutput;
}

export async function resumeCode(
  ws: Workspace,
  branch: PreparedBranch,
  kept: KeptCommit,
  saved: CodeOutput | undefined,
): Promise<CodeOutput> {
  const checkpoint = savedFor(saved, branch, kept);
  if (checkpoint) return checkpoint;
  const commit = await describeCommit(ws, kept.sha, []);
  const changes = await changedFiles(ws, `${kept.sha}^`, kept.sha);
  return {
    commit,
    code: {
      changes,
      validation: [],
      warnings: [
        `This run's earlier attempt kept ${kept.sha.slice(0, 12)} once its validation had passed, then stopped before it could record the output; the validation output was not kept.`,
      ],
      notes: { user: [], debug: [] },
      amendments: [],
      repairs: 0,
      baseline: null,
      preexisting: [],
    },
    branch: { name: branch.name, remoteShaBefore: branch.remoteShaBefore, kept },
  };
}
