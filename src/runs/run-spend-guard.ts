/**
 * The spend guard of one stage attempt of a run (issue #36): the port the LLM client asks before
 * each call it sends and tells after each answer (`llm/spend-guard.ts`). Before: `budgetCapHit`
 * (`budget.ts`) decides from the run's usage when the attempt began plus what the attempt's calls
 * used since, what `/autofix continue` added, and the ledger's current figures for the run's
 * installation and requester; a cap hit comes back with its sentence and the client throws
 * `BUDGET_PAUSED` (the run parks: `park-reason.ts`). After: the call's cost is added to the
 * ledger — once per real call (an answer replayed from the call journal is not told). The run's
 * record gets the attempt's usage from the client's tracker when the attempt ends, as for any
 * stage; the guard writes no run record.
 *
 * Wiring, in a stage job (a check before the stage, then the client's guard):
 *
 *   const caps = budgetCapsOf(run.config, settings.costCaps);
 *   const ledger = createRedisSpendLedger(redis, prefix);
 *   const hit = await runBudgetHit(run, caps, ledger, nextCallOfStage(run.usage), Date.now());
 *   if (hit) → park 'budget' with budgetPauseMessage(hit, { place: `after ${previousStage}`, caps,
 *     command: run.config.command, now: Date.now(), requester: run.sender }) and `cap: hit`;
 *   const llm = createConfiguredLlm(settings, {
 *     redact, log,
 *     spendGuard: createRunSpendGuard({ run, stage, caps, ledger }),
 *     journal: createRedisCallJournal(redis, prefix, run.runId),
 *   });
 *   // a stage that throws: parkReasonOf(err) === 'budget' → park with err.message (already the
 *   // sentence) and capOf(err).
 *
 * Calls of one attempt that run at once are each checked against what was spent before them, so
 * together they can pass a cap by at most their own estimates.
 */
import type { StageName } from '../contracts.js';
import type { SpendGuard } from '../llm/spend-guard.js';
import { budgetCapHit, extraTokensOf, type NextCall } from './budget.js';
import type { BudgetCaps } from './budget-caps.js';
import { budgetPauseMessage } from './budget-message.js';
import { addUsage, EMPTY_USAGE, type BudgetCapHit, type Run, type RunUsage } from './run-record.js';
import type { SpendLedger, SpendScope } from './spend-ledger.js';

const scopeOf = (run: Pick<Run, 'installationId' | 'sender'>): SpendScope => ({
  installationId: run.installationId,
  requester: run.sender,
});

/** The cap `next` would cross for `run` now, with the ledger's figures; undefined: go on. */
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

export interface RunSpendGuardOptions {
  /** The run as the attempt began (its usage, `extraBudgetUsd`, resumes, installation, sender). */
  run: Pick<Run, 'installationId' | 'sender' | 'usage' | 'extraBudgetUsd' | 'resumes' | 'config'>;
  /** The stage whose calls the guard sees (named in the parking sentence). */
  stage: StageName;
  caps: BudgetCaps;
  ledger: SpendLedger;
  now?: () => number;
}

/** A run's spend guard; `used()` is what the calls it was told of used. */
export function createRunSpendGuard(
  options: RunSpendGuardOptions,
): SpendGuard & { used(): RunUsage } {
  const { run, stage, caps, ledger } = options;
  const now = options.now ?? Date.now;
  let used: RunUsage = EMPTY_USAGE;
  return {
    async beforeCall(estimate) {
      const at = now();
      const next = { costUsd: estimate.costUsd, tokens: estimate.tokens, priced: estimate.priced };
      const cap = await runBudgetHit(
        { ...run, usage: addUsage(run.usage, used) },
        caps,
        ledger,
        next,
        at,
      );
      if (!cap) return undefined;
      const message = budgetPauseMessage(cap, {
        place: `during ${stage}`,
        caps,
        command: run.config.command,
        now: at,
        requester: run.sender,
      });
      return { cap, message };
    },
    async afterCall({ usage }) {
      used = addUsage(used, {
        promptTokens: usage.promptTokens,
        completionTokens: usage.completionTokens,
        totalTokens: usage.totalTokens,
        costUsd: usage.cost,
        unpricedCalls: usage.priced ? 0 : 1,
        maxCallCostUsd: usage.cost,
      });
      if (usage.cost > 0) await ledger.add(scopeOf(run), usage.cost, now());
    },
    used: () => used,
  };
}
