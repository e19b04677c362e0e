/** What a stage function is: it takes the run's `StageEnv` and continues with an output or stops. */
import type { RunPins, StageName, StageOutputMap } from '../../contracts.js';
import type { StageEnv } from './stage-env.js';

export type StageResult<O> =
  /** Done: `output` becomes `outputs[stage]`; `pins` are merged into the run's. */
  | { kind: 'continue'; output: O; pins?: RunPins }
  /** End the run here without an error (e.g. the PR was closed meanwhile); shown to users. */
  | { kind: 'stop'; reason: string };

export type StageFn<S extends StageName> = (
  env: StageEnv,
) => Promise<StageResult<StageOutputMap[S]>>;

export type StageTable = { readonly [S in StageName]: StageFn<S> };
