/**
 * A code stage whose earlier attempt kept its commit and then died (worker killed, Redis gone
 * before the job completed) goes on from that commit instead of asking the model again: the
 * run's private ref holds it, and the output saved just before the keep (the checkpoint)
 * describes it. Without a checkpoint that matches, the output is read back from git and says
 * that the validation output was not kept (the commit was only kept after it passed).
 */
import type { CodeOutput, CodeSummary, KeptCommit } from '../../contracts.js';
import { describeCommit } from '../../git/commit.js';
import type { PreparedBranch } from '../../git/branch.js';
import { runGit } from '../../git/run-git.js';
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

const OPERATIONS: Record<string, CodeSummary['changes'][number]['operation']> = {
  A: 'created',
  D: 'deleted',
};

export async function resumeCode(
  ws: Workspace,
  branch: PreparedBranch,
  kept: KeptCommit,
  saved: CodeOutput | undefined,
): Promise<CodeOutput> {
  const checkpoint = savedFor(saved, branch, kept);
  if (checkpoint) return checkpoint;
  const commit = await describeCommit(ws, kept.sha, []);
  const status = await runGit(
    ['diff', '--name-status', '--no-renames', '-z', `${kept.sha}^`, kept.sha],
    { cwd: ws.mirrorDir },
  );
  const fields = status.stdout.split('\0').filter(Boolean);
  const changes: CodeSummary['changes'] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    changes.push({ path: fields[i + 1]!, operation: OPERATIONS[fields[i]!] ?? 'modified' });
  }
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
