/**
 * The outcome store, writing each new outcome into the run's record as well (`Run.prOutcome`):
 * the run page and the record say what became of the PR. A run whose record expired keeps its
 * outcome in the outcome store only.
 */
import type { PrOutcomeRecord, PrOutcomeStore } from './pr-outcomes.js';
import { RunNotFoundError, type PrOutcome, type RunStore } from './run-record.js';

export function outcomesIntoRuns(outcomes: PrOutcomeStore, runs: RunStore): PrOutcomeStore {
  const note = async (runId: string, outcome: PrOutcome): Promise<void> => {
    await runs
      .update(runId, (run) => ({ ...run, prOutcome: outcome }))
      .catch((err: unknown) => {
        if (!(err instanceof RunNotFoundError)) throw err;
      });
  };
  const reverted = async (
    found: PrOutcomeRecord | undefined,
    at: number,
  ): Promise<PrOutcomeRecord | undefined> => {
    if (found) await note(found.runId, { outcome: 'reverted', at });
    return found;
  };
  return {
    ...outcomes,
    async decide(decision) {
      const added = await outcomes.decide(decision);
      if (added) await note(decision.runId, { outcome: decision.outcome, at: decision.at });
      return added;
    },
    revertPull: async (repo, pr, at) => reverted(await outcomes.revertPull(repo, pr, at), at),
    revertCommit: async (repo, sha, at) => reverted(await outcomes.revertCommit(repo, sha, at), at),
  };
}
