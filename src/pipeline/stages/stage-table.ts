/**
 * The pipeline, defined once: each stage's function, typed by `StageOutputMap` (`contracts.ts`).
 * A run goes through the stages of its route (`ROUTES`: `fix` for every fix, `verify` for a
 * re-run of a PR's verification). The in-process runner (`run-stages.ts`) and the BullMQ adapter
 * (`src/hosts/app/stages/`) both run this table. Adding a stage: its name in `STAGES` and on a route, its
 * output type in `StageOutputMap`, its function here — the compiler points at whichever is missing.
 *
 * Publish last: the code stage keeps its commit on the run's private ref; only the `pr` stage,
 * the last one, publishes the branch and opens the PR, so any stage placed between them can still
 * say no with nothing on the remote's branches.
 */
import { codeStage } from './code-stage.js';
import { planStage } from './plan-stage.js';
import { prStage } from './pr-stage.js';
import { reproduceStage } from './reproduce-stage.js';
import type { StageTable } from './stage-fn.js';
import { triageStage } from './triage-stage.js';
import { verifyStage } from './verify-stage.js';

export const PIPELINE: StageTable = {
  triage: triageStage,
  plan: planStage,
  reproduce: reproduceStage,
  code: codeStage,
  pr: prStage,
  verify: verifyStage,
};
