/** The PR outcome store's port over a map (unit tests): the same moves as the Redis store. */
import {
  canMove,
  type PrOutcomeRecord,
  type PrOutcomeStore,
  type RepoOutcomes,
} from '../../src/runs/pr-outcomes.js';

export function createMemoryPrOutcomes(): PrOutcomeStore & {
  records: Map<string, PrOutcomeRecord>;
} {
  const records = new Map<string, PrOutcomeRecord>();
  const find = (test: (r: PrOutcomeRecord) => boolean) => [...records.values()].find(test);
  const revert = (known: PrOutcomeRecord | undefined, at: number) => {
    if (!known || !canMove(known.outcome, 'reverted')) return Promise.resolve(undefined);
    const reverted = { ...known, outcome: 'reverted' as const, revertedAt: at };
    records.set(known.runId, reverted);
    return Promise.resolve(reverted);
  };
  const sameRepo = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  return {
    records,
    decide(d) {
      const known = find((r) => sameRepo(r.repo, d.repo) && r.pr === d.pr);
      const runId = known?.runId ?? d.runId;
      if (!canMove(records.get(runId)?.outcome, d.outcome)) return Promise.resolve(false);
      records.set(runId, {
        ...d,
        runId,
        repo: d.repo.toLowerCase(),
        ...(d.mergeSha ? { mergeSha: d.mergeSha.toLowerCase() } : {}),
      });
      return Promise.resolve(true);
    },
    revertPull: (repo, pr, at) =>
      revert(
        find((r) => sameRepo(r.repo, repo) && r.pr === pr),
        at,
      ),
    revertCommit: (repo, sha, at) =>
      revert(
        find((r) => sameRepo(r.repo, repo) && r.mergeSha === sha.toLowerCase()),
        at,
      ),
    ofRun: (runId) => Promise.resolve(records.get(runId)),
    byRepository(since) {
      const rows = new Map<string, RepoOutcomes>();
      for (const r of records.values()) {
        if (r.at < since) continue;
        const row = rows.get(r.repo) ?? { repo: r.repo, merged: 0, closed: 0, reverted: 0 };
        row[r.outcome] += 1;
        rows.set(r.repo, row);
      }
      return Promise.resolve([...rows.values()]);
    },
  };
}
