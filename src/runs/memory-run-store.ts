/** The run store of `autofix run` and of tests: one process, no Redis. */
import { RunNotFoundError, type Run, type RunStore } from './run-record.js';
import { parkedOnKey } from './run-store-keys.js';

export function createMemoryRunStore(now: () => number = Date.now): RunStore {
  const runs = new Map<string, string>();
  const read = (runId: string): Run | undefined => {
    const text = runs.get(runId);
    return text === undefined ? undefined : (JSON.parse(text) as Run);
  };
  const all = (): Run[] => [...runs.keys()].map((id) => read(id)!);
  return {
    create(run) {
      if (runs.has(run.runId)) return Promise.resolve(false);
      runs.set(run.runId, JSON.stringify(run));
      return Promise.resolve(true);
    },
    get: (runId) => Promise.resolve(read(runId)),
    discard(runId) {
      if (read(runId)?.rev === 0) runs.delete(runId);
      return Promise.resolve();
    },
    update(runId, change) {
      const current = read(runId);
      if (!current) return Promise.reject(new RunNotFoundError(runId));
      const next = change(current);
      if (!next) return Promise.resolve(current);
      const written = { ...next, rev: current.rev + 1, updatedAt: now() };
      runs.set(runId, JSON.stringify(written));
      return Promise.resolve(written);
    },
    recent: (limit) =>
      Promise.resolve(
        all()
          .sort((a, b) => b.acceptedAt - a.acceptedAt)
          .slice(0, limit)
          .map((r) => r.runId),
      ),
    parked: () =>
      Promise.resolve(
        all()
          .filter((r) => r.parked && !r.ending)
          .map((r) => r.runId),
      ),
    parkedOn: (repo, conversation) =>
      Promise.resolve(
        all().find(
          (r) =>
            r.parked &&
            !r.ending &&
            parkedOnKey(r.repository.fullName, r.facts.conversation) ===
              parkedOnKey(repo, conversation),
        )?.runId,
      ),
  };
}
