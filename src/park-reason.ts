/**
 * Which failures park a run instead of failing it (beside `classify-error.ts`, which says which
 * are retried): the run waits with its checkpoint, and `/autofix continue` resumes it at the
 * stage that met the failure. A call refused at a money cap (`BUDGET_PAUSED`) parks for the
 * budget; an LLM endpoint that stayed down (`LLM_UNAVAILABLE` after an outage, not a refused
 * key or an unknown model) parks once the job's own retries are spent too.
 */
import { isAutofixError, type AutofixError } from './errors.js';

export type ParkingFailure = 'budget' | 'llm-unavailable';

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
): ParkingFailure | undefined {
  const found = autofixErrorIn(err);
  if (found?.code === 'BUDGET_PAUSED') return 'budget';
  if (found?.code === 'LLM_UNAVAILABLE' && found.recoverable && !options.willRetry)
    return 'llm-unavailable';
  return undefined;
}
