/**
 * The one repair loop (issue #16), shared by the code stage (`run-code-agent.ts`) and the local
 * modes (`autofix code-commit`, `autofix work-order`): ask the model → apply and check its answer →
 * on failure ask again with that failure, until an answer passes, the repairs run out, or the
 * caller says stop. Pure orchestration: the steps are the caller's, and so are its prompts, logs and
 * outputs; the loop owns the control flow and the bookkeeping (round count, which round failed
 * how, why it stopped).
 *
 *   round 0     ask({ previous: undefined })      → check → passed: done
 *   round n ≥ 1 ask({ previous: failure of n - 1 }) → check → …
 *
 * After every failed round (the last one included) `afterFailure` runs (a rollback, a progress
 * line), then `stopWhen` may end the loop early; otherwise it ends after `maxRepairs` repairs. An
 * aborted `signal` is checked before every ask: no new question once it fired (the reason is
 * thrown); the step in flight gets the signal from its caller. An error thrown by a step ends the
 * loop with that error.
 */

/** What checking one round's answer found. */
export type RoundVerdict<R, F> = { passed: true; value: R } | { passed: false; failure: F };

/** What the ask of a round knows. */
export interface RepairTurn<F> {
  /** 0 for the first answer, n for the n-th repair. */
  round: number;
  /** The failure of the round before; undefined only in round 0. */
  previous: F | undefined;
  /** Every failure so far, oldest first: `failures[i]` is round i's. */
  failures: readonly F[];
}

export interface RepairSteps<A, R, F> {
  /** Asks the model: the first answer, or a repair of `turn.previous`. */
  ask(turn: RepairTurn<F>): Promise<A>;
  /** Applies the answer and checks it. */
  check(answer: A, round: number): Promise<RoundVerdict<R, F>>;
  /** After every failed round, the last one included, before the loop decides to go on. */
  afterFailure?(failure: F, round: number): void | Promise<void>;
  /**
   * A reason to stop now without another repair (a refusal the caller treats as final, the same
   * failure again), or undefined to go on. `earlier` holds the failures of the rounds before.
   */
  stopWhen?(failure: F, earlier: readonly F[]): string | undefined;
}

export interface RepairLoopOptions {
  /** Repair rounds after the first answer (0: the first answer only). */
  maxRepairs: number;
  signal?: AbortSignal;
}

export type RepairLoopResult<R, F> = {
  /** Repair rounds asked (0: the first answer was the last). */
  repairs: number;
  /** The failure of every failed round, oldest first (`failures[i]` is round i's). */
  failures: F[];
} & (
  | { passed: true; value: R }
  | {
      passed: false;
      /** The last round's failure. */
      failure: F;
      /** `limit`: no repair left; `stopWhen`: the caller stopped it, for `reason`. */
      stopped: 'limit' | 'stopWhen';
      reason?: string;
    }
);

export async function repairLoop<A, R, F>(
  options: RepairLoopOptions,
  steps: RepairSteps<A, R, F>,
): Promise<RepairLoopResult<R, F>> {
  const { maxRepairs, signal } = options;
  if (!Number.isInteger(maxRepairs) || maxRepairs < 0)
    throw new RangeError(`maxRepairs must be a whole number ≥ 0, not ${maxRepairs}`);
  const failures: F[] = [];
  for (let round = 0; ; round++) {
    signal?.throwIfAborted();
    const answer = await steps.ask({ round, previous: failures.at(-1), failures: [...failures] });
    const verdict = await steps.check(answer, round);
    if (verdict.passed) return { passed: true, value: verdict.value, repairs: round, failures };
    const earlier = [...failures];
    failures.push(verdict.failure);
    await steps.afterFailure?.(verdict.failure, round);
    const reason = steps.stopWhen?.(verdict.failure, earlier);
    if (reason !== undefined)
      return {
        passed: false,
        failure: verdict.failure,
        stopped: 'stopWhen',
        reason,
        repairs: round,
        failures,
      };
    if (round >= maxRepairs)
      return {
        passed: false,
        failure: verdict.failure,
        stopped: 'limit',
        repairs: round,
        failures,
      };
  }
}

/**
 * A `stopWhen` that ends the loop when a round fails exactly as the round before it did (`key`
 * says what "exactly" means: the command and its output, say): another repair would start from
 * the same brief.
 */
export function sameFailureTwice<F>(
  key: (failure: F) => string,
): (failure: F, earlier: readonly F[]) => string | undefined {
  return (failure, earlier) => {
    const last = earlier[earlier.length - 1];
    return earlier.length > 0 && key(last as F) === key(failure)
      ? 'the same failure as the round before'
      : undefined;
  };
}
