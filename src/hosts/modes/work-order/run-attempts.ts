/**
 * Attempts 1..max of a work order (one is `run-attempt.ts`) on the shared repair loop
 * (`pipeline/code/repair-loop.ts`): after a failed attempt `git reset --hard <baseline>` +
 * `git clean -fd`, and its FailureBrief feeds the next one; on PASS the changes stay uncommitted
 * and the work tree's git tree hash is recorded.
 */
import { repairLoop } from '../../../pipeline/code/repair-loop.js';
import { rollbackRepo } from './rollback-repo.js';
import {
  checkProposal,
  proposeAttempt,
  type AttemptContext,
  type Proposal,
} from './run-attempt.js';
import { treeHash } from './tree-hash.js';
import type { AttemptRecord, RunSummary } from './types.js';

/** Runs the attempts into `summary`: each attempt's record, then the verdict or the last brief. */
export async function runAttempts(
  ctx: AttemptContext,
  summary: RunSummary,
  progress: (text: string) => void,
): Promise<void> {
  const { repo, baselineCommit, maxAttempts } = ctx;
  const outcome = await repairLoop<Proposal, AttemptRecord, AttemptRecord>(
    { maxRepairs: maxAttempts - 1 },
    {
      ask: ({ round, previous }) => {
        progress(`attempt ${round + 1} of ${maxAttempts}`);
        return proposeAttempt(ctx, round + 1, previous?.failure_brief ?? null);
      },
      check: async (proposal) => {
        const record = await checkProposal(ctx, proposal);
        summary.attempts.push(record);
        return record.failure_brief
          ? { passed: false, failure: record }
          : { passed: true, value: record };
      },
      afterFailure: async (record) => {
        progress(
          `attempt ${record.attempt_index}: FAIL (${record.failure_brief?.stage}); rolling back`,
        );
        await rollbackRepo(repo, baselineCommit);
        record.rolled_back = true;
      },
    },
  );
  if (outcome.passed) {
    summary.verdict = 'PASS';
    summary.repo_tree_hash_after = await treeHash(repo);
    progress(`attempt ${outcome.value.attempt_index}: PASS`);
  } else {
    summary.failure_brief = outcome.failure.failure_brief;
  }
}
