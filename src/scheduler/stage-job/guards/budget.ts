/**
 * Money before a stage starts: when the run's next call would cross a cap — the run's own
 * (`cost_budget_usd`, bounded by `MAX_RUN_COST_USD`), its installation's day or month, its
 * requester's day, or the token cap of unpriced models — the run parks here, before the stage,
 * and the status comment says so: "paused at $1.94 of $2.00 after plan; …". The next call is
 * estimated as the run's most expensive call so far (`nextCallOfStage`). Inside a stage, the LLM
 * client asks the same question before each call (`runs/run-spend-guard.ts`).
 */
import { budgetPauseMessage } from '../../../runs/budget-message.js';
import { nextCallOfStage } from '../../../runs/budget.js';
import { stagesOf } from '../../../runs/run-addressing.js';
import type { Run } from '../../../runs/run-record.js';
import { runBudgetHit } from '../../../runs/run-spend-guard.js';
import type { StageName } from '../../../runs/types.js';
import type { StageJobGuard } from '../job-gate.js';
import { parkRun } from '../park-run.js';
import { stageStatus } from '../stage-status.js';

/** Where the run stands, for the sentence: after the last stage done, or before this one. */
export function placeOf(run: Run, stage: StageName): string {
  const route = stagesOf(run);
  const done = route.slice(0, route.indexOf(stage)).filter((s) => run.stages[s]?.state === 'done');
  return done.length > 0 ? `after ${done[done.length - 1]}` : `before ${stage}`;
}

export const parkOverBudget: StageJobGuard = async (gate) => {
  const { rt, run, stage } = gate;
  if (!rt.money) return undefined;
  const caps = rt.money.caps(run);
  const now = Date.now();
  const hit = await runBudgetHit(run, caps, rt.money.ledger, nextCallOfStage(run.usage), now);
  if (!hit) return undefined;
  const message = budgetPauseMessage(hit, {
    place: placeOf(run, stage),
    caps,
    command: run.config.command,
    now,
    requester: run.sender,
  });
  const status = stageStatus(gate, await gate.client());
  return parkRun(gate, { kind: 'park', reason: 'budget', message, cap: hit }, { status });
};
