/** One attempt's time and LLM usage, as the stage reports it, for the run's stage record. */
import type { RunUsage } from '../../runs/run-record.js';
import type { AttemptAccount } from '../../runs/run-transitions.js';

export function attemptAccount(now: () => number = () => performance.now()): {
  record: (usage: RunUsage, models: readonly string[]) => void;
  close: () => AttemptAccount;
} {
  const started = now();
  let usage: RunUsage | undefined;
  let models: readonly string[] = [];
  return {
    // The stage reports its running totals: the last report is the attempt's.
    record: (u, m) => {
      usage = u;
      models = m;
    },
    close: () => ({
      durationMs: Math.round(now() - started),
      ...(usage ? { usage } : {}),
      ...(models.length > 0 ? { models } : {}),
    }),
  };
}
