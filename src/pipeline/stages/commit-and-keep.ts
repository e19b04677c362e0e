/**
 * The code stage's last step: the validated change committed on the run's branch, the output
 * saved as the stage's checkpoint, then the commit kept on the run's private ref
 * (`git/keep-commit.ts`) — not published.
 */
import type { CodeOutput } from '../../contracts.js';
import type { PreparedBranch } from '../../git/branch.js';
import { DEFAULT_BOT_IDENTITY } from '../../git/identity.js';
import { keepCommit, keptRefOf } from '../../git/keep-commit.js';
import type { CodeResult } from '../code/run-code-agent.js';
import { commitChange } from '../commit-change.js';
import type { CodeJob } from './code-job.js';
import { reproductionTrailers } from './code-reproduction.js';
import { toCodeOutput } from './code-output.js';

export async function commitAndKeep(
  job: CodeJob,
  code: CodeResult,
  branch: PreparedBranch,
): Promise<CodeOutput> {
  const { env, ws, issue, plan, reproduced, git } = job;
  const { facts } = env;
  env.progress?.({ stage: 'commit', status: 'start', message: 'commit' });
  const commit = await commitChange(ws, {
    issue,
    plan,
    code,
    identity: DEFAULT_BOT_IDENTITY,
    logger: env.log,
    runId: facts.runId,
    trailers: [...(facts.commitTrailers ?? []), ...reproductionTrailers(reproduced)],
  });
  const result = toCodeOutput(commit, code, {
    name: branch.name,
    remoteShaBefore: branch.remoteShaBefore,
    kept: { ref: keptRefOf(facts.runId), sha: commit.sha },
  });
  if (branch.replaced) {
    result.code.warnings = [
      ...result.code.warnings,
      `Started over from ${facts.baseBranch}: the branch \`${branch.name}\` (was ${branch.replaced.slice(0, 12)}, an earlier run's) is replaced by this run's commit.`,
    ];
  }
  // Before the keep: a retry after a keep that outlived its job goes on from here.
  await env.checkpoint.save({ code: result });
  await keepCommit(ws, facts.runId, git);
  env.progress?.({ stage: 'commit', status: 'done', message: 'commit' });
  return result;
}
