/** What a stage function is: it takes the run's `StageEnv` and continues with an output or stops. */
import type { StageAnswer, StageName, StageOutputMap } from '../../contracts.js';
import type { StageEnv } from './stage-env.js';

/** A stage function's answer (one definition for both runners: `StageAnswer`, contracts.ts). */
export type StageResult<O> = StageAnswer<O>;

export type StageFn<S extends StageName> = (
  env: StageEnv,
) => Promise<StageResult<StageOutputMap[S]>>;

export type StageTable = { readonly [S in StageName]: StageFn<S> };
