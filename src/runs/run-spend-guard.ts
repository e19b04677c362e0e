/**
 * The spend guard of one stage of a run (issue #36): the port the LLM client asks before each
 * call it sends and tells after each answer (`llm/spend-guard.ts`). Before: the run's record is
 * read fresh (its usage, what `/autofix continue` added), the ledger's figures of its
 * installation and requester, and `budgetCapHit` (`budget.ts`) decides; a cap hit comes back with
 * its sentence and the client throws `BUDGET_PAUSED` (the run parks: `park-reason.ts`). After:
 * the call's usage is added to the run's record (the run's and the stage's usage) and its cost to
 * the ledger — once per real call: an answer replayed from the call journal is not told. So the
 * wiring must not add the client's totals to the run again.
 *
 * Wiring, in a stage job (the stage guard first, then the client):
 *
 *   const caps = budgetCapsOf(run.config, settings.costCaps);
 *   const ledger = createRedisSpendLedger(redis, prefix);
 *   const hit = await runBudgetHit(run, caps, ledger, nextCallOfStage(run.usage), Date.now());
 *   if (hit) park(run, 'budget', budgetPauseMessage(hit, { place: `after ${previous}`, caps,
 *     command: run.config.command, now: Date.now(), requester: run.sender }), hit);
 *   const llm = createConfiguredLlm(settings, {
 *     redact, log,
 *     spendGuard: createRunSpendGuard({ runs, runId: run.runId, stage, caps, ledger }),
 *     journal: createRedisCallJournal(redis, prefix, run.runId),
 *   });
 *   // …the stage runs; on failure: parkReasonOf(err) === 'budget' → park with
 *   // budgetPauseOf(err).cap and err.message (already the sentence).
 *
 * Calls of one stage that run at once are each checked against what was spent before them, so
 * together they can pass a cap by at most their own estimates.
 */
import type { StageName } from '../contracts.js';
import type { SpendGuard } from '../llm/spend-guard.js';
import { budgetCapHit, extraTokensOf, type NextCall } from './budget.js';
import type { BudgetCaps } from './budget-caps.js';
import { budgetPauseMessage } from './budget-message.js';
import {
  addUsage,
  EMPTY_USAGE,
  RunNotFoundError,
  type BudgetCapHit,
  type Run,
  type RunStore,
  type RunUsage,
} from './run-record.js';
import type { SpendLedger, SpendScope } from './spend-ledger.js';

const scopeOf = (run: Pick<Run, 'installationId' | 'sender'>): SpendScope => ({
  installationId: run.installationId,
  requester: run.sender,
});

/** The cap `next` would cross for `run` now, with the ledger's current figures; undefined: go on. */
export async function runBudgetHit(
  run: Pick<Run, 'installationId' | 'sender' | 'usage' | 'extraBudgetUsd' | 'resumes'>,
  caps: BudgetCaps,
  ledger: SpendLedger,
  next: NextCall,
  at: number,
): Promise<BudgetCapHit | undefined> {
  const spent = await ledger.read(scopeOf(run), at);
  const extraTokens = extraTokensOf(run, caps);
  return budgetCapHit(
    { usage: run.usage, extraBudgetUsd: run.extraBudgetUsd, extraTokens, caps, spent },
    next,
  );
}

/** `run` with one call's usage added to its total and to `stage`'s record (when it has one). */
export function chargeRun(run: Run, stage: StageName, model: string, call: RunUsage): Run {
  const record = run.stages[stage];
  if (!record) return { ...run, usage: addUsage(run.usage, call) };
  const models = record.models ?? [];
  return {
    ...run,
    usage: addUsage(run.usage, call),
    stages: {
      ...run.stages,
      [stage]: {
        ...record,
        usage: addUsage(record.usage ?? EMPTY_USAGE, call),
        models: models.includes(model) ? models : [...models, model],
      },
    },
  };
}

export interface RunSpendGuardOptions {
  runs: RunStore;
  runId: string;
  /** The stage whose calls the guard sees (its record gets their usage). */
  stage: StageName;
  caps: BudgetCaps;
  ledger: SpendLedger;
  now?: () => number;
}

export function createRunSpendGuard(options: RunSpendGuardOptions): SpendGuard {
  const { runs, runId, stage, caps, ledger } = options;
  const now = options.now ?? Date.now;
  return {
    async beforeCall(estimate) {
      const run = await runs.get(runId);
      if (!run) throw new RunNotFoundError(runId);
      const at = now();
      const next = { costUsd: estimate.costUsd, tokens: estimate.tokens, priced: estimate.priced };
      const cap = await runBudgetHit(run, caps, ledger, next, at);
      if (!cap) return undefined;
      const place = `during ${stage}`;
      const message = budgetPauseMessage(cap, {
        place,
        caps,
        command: run.config.command,
        now: at,
        requester: run.sender,
      });
      return { cap, message };
    },
    async afterCall({ model, usage }) {
      const call: RunUsage = {
        promptTokens: usage.promptTokens,
        completionTokens: usage.completionTokens,
        totalTokens: usage.totalTokens,
        costUsd: usage.cost,
        unpricedCalls: usage.priced ? 0 : 1,
        maxCallCostUsd: usage.cost,
      };
      const run = await runs.update(runId, (r) => chargeRun(r, stage, model, call));
      if (usage.cost > 0) await ledger.add(scopeOf(run), usage.cost, now());
    },
  };
}
