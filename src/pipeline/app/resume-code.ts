/**
 * A code stage whose earlier attempt pushed and then died (worker killed, Redis gone before the
 * job completed) goes on from that push instead of asking the model again: the branch tip carries
 * this run's `Autofix-Run` trailer, and the output saved just before the push (the checkpoint)
 * describes it. Without a checkpoint that matches the tip, the output is read back from git and
 * says that the validation output was not kept (the commit was only pushed after it passed).
 */
import { describeCommit } from '../../git/commit.js';
import type { PreparedBranch } from '../../git/branch.js';
import { runGit } from '../../git/run-git.js';
import type { Workspace } from '../../git/workspace.js';
import type { CodeResult } from '../code/run-code-agent.js';
import type { CodeOutput } from './code-output.js';

function savedFor(saved: unknown, branch: PreparedBranch): CodeOutput | undefined {
  const output = saved as Partial<CodeOutput> | undefined;
  if (!output?.branch || !output.commit || !output.code) return undefined;
  if (output.branch.name !== branch.name || output.branch.pushedSha !== branch.resumed) {
    return undefined;
  }
  return output as CodeOutput;
}

const OPERATIONS: Record<string, CodeResult['changes'][number]['operation']> = {
  A: 'created',
  D: 'deleted',
};

export async function resumeCode(
  ws: Workspace,
  branch: PreparedBranch,
  saved: unknown,
): Promise<CodeOutput> {
  const tip = branch.resumed!;
  const checkpoint = savedFor(saved, branch);
  if (checkpoint) {
    // Where the branch was before this run (a replaced branch's old tip included), for rollback.
    ws.branch = { ...ws.branch!, remoteShaBefore: checkpoint.branch.remoteShaBefore };
    return checkpoint;
  }
  const commit = await describeCommit(ws, tip, []);
  const status = await runGit(['diff', '--name-status', '--no-renames', '-z', `${tip}^`, tip], {
    cwd: ws.mirrorDir,
  });
  const fields = status.stdout.split('\0').filter(Boolean);
  const changes: CodeResult['changes'] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    changes.push({ path: fields[i + 1]!, operation: OPERATIONS[fields[i]!] ?? 'modified' });
  }
  return {
    commit,
    code: {
      changes,
      validation: [],
      warnings: [
        `This run's earlier attempt pushed ${tip.slice(0, 12)} once its validation had passed, then stopped before it could record the output; the validation output was not kept.`,
      ],
      notes: { user: [], debug: [] },
      amendments: [],
      repairs: 0,
    },
    branch: { name: branch.name, remoteShaBefore: branch.remoteShaBefore, pushedSha: tip },
  };
}
