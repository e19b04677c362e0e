/**
 * Which failures park a run instead of failing it (run-record.ts, `ParkReason`; beside
 * `classify-error.ts`, which says which are retried): a cap the next LLM call would cross
 * (`BUDGET_PAUSED`, thrown by the LLM client's spend guard before the call is sent), and an LLM
 * endpoint still unavailable once the stage's retries are spent (`LLM_UNAVAILABLE` after an
 * outage — not a refused key or an unknown model, which no waiting fixes). A maintainer's
 * `/autofix continue` resumes either at the stage that stopped, from its checkpoint.
 */
import { isAutofixError, type AutofixError } from './errors.js';
import type { StageName } from './contracts.js';
import type { BudgetCapHit, ParkReason } from './runs/run-record.js';

/** The AutofixError of `err` or of one of its causes (a stage may wrap what it caught). */
function autofixErrorIn(err: unknown): AutofixError | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as Error).cause, depth++) {
    if (isAutofixError(e)) return e;
  }
  return undefined;
}

/**
 * `budget`, `llm-unavailable`, or undefined (fail or retry as `classifyError` says).
 * `willRetry`: the queue will run the job again (attempts left); an outage then waits for that
 * retry instead of parking.
 */
export function parkReasonOf(
  err: unknown,
  options: { willRetry?: boolean } = {},
): Exclude<ParkReason, 'plan-approval'> | undefined {
  const found = autofixErrorIn(err);
  if (found?.code === 'BUDGET_PAUSED') return 'budget';
  if (found?.code === 'LLM_UNAVAILABLE' && found.recoverable && !options.willRetry)
    return 'llm-unavailable';
  return undefined;
}

/** The cap a `BUDGET_PAUSED` error carries in its details (`llm/spend-guard.ts`), when it does. */
export function capOf(err: unknown): BudgetCapHit | undefined {
  const found = autofixErrorIn(err);
  if (found?.code !== 'BUDGET_PAUSED') return undefined;
  const cap = (found.details as { cap?: BudgetCapHit } | undefined)?.cap;
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
  if (reason === 'budget') return autofixErrorIn(err)?.message ?? said;
  return `paused during ${stage}: the model endpoint did not answer (${said}); \`${command} continue\` tries ${stage} again from where it stood`;
}
