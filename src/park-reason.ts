/**
 * Which failures park a run instead of failing it (run-record.ts, `ParkReason`): a cap the next
 * LLM call would cross (`BUDGET_PAUSED`), and an LLM endpoint still unavailable once the stage's
 * retries are spent (`LLM_UNAVAILABLE`). A maintainer's `/autofix continue` resumes either at the
 * stage that stopped, from its checkpoint.
 */
import { isAutofixError } from './errors.js';
import type { StageName } from './contracts.js';
import type { BudgetCapHit, ParkReason } from './runs/run-record.js';

export function parkReasonOf(err: unknown): Exclude<ParkReason, 'plan-approval'> | undefined {
  if (!isAutofixError(err)) return undefined;
  if (err.code === 'BUDGET_PAUSED') return 'budget';
  if (err.code === 'LLM_UNAVAILABLE') return 'llm-unavailable';
  return undefined;
}

/** The cap a `BUDGET_PAUSED` error carries in its details, when it does. */
export function capOf(err: unknown): BudgetCapHit | undefined {
  if (!isAutofixError(err) || err.code !== 'BUDGET_PAUSED') return undefined;
  const cap = (err.details as { cap?: BudgetCapHit } | undefined)?.cap;
  return cap && typeof cap.limit === 'number' ? cap : undefined;
}

/** The status comment's sentence for a parking caused by `err` during `stage`. */
export function parkMessageOf(
  err: unknown,
  reason: Exclude<ParkReason, 'plan-approval'>,
  stage: StageName,
  command: string,
): string {
  const said = err instanceof Error ? err.message : String(err);
  if (reason === 'budget') return said;
  return `paused during ${stage}: the model endpoint did not answer (${said}); \`${command} continue\` tries ${stage} again from where it stood`;
}
