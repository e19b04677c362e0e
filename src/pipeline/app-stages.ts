/**
 * The seam between the app (queue workers) and the stage logic: `autofix serve` and
 * `autofix worker` take their StageProcessors and run-failed hook from here.
 *
 * TODO(pipeline): placeholder. Replace the bodies with the real triage → plan → code → pr stages
 * (DESIGN.md §1; contract in src/queue/types.ts) and the rollback hook. Until then every stage
 * fails permanently with INTERNAL "stage not wired yet", which the app reports on the issue.
 */
import type { Redactor } from '../artifacts/redact.js';
import type { Settings } from '../config/env.js';
import { AutofixError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { AppMetrics } from '../queue/metrics.js';
import type { RunFailedHook, StageProcessors } from '../queue/types.js';

export interface AppStageDeps {
  settings: Settings;
  log: Logger;
  /** `metrics.llmTokens` is for the pipeline to increment. */
  metrics: AppMetrics;
  redact: Redactor;
}

const notWired = (stage: string): Promise<never> =>
  Promise.reject(
    new AutofixError('INTERNAL', `stage not wired yet: ${stage}`, { recoverable: false }),
  );

export function createStageProcessors(_deps: AppStageDeps): StageProcessors {
  return {
    triage: () => notWired('triage'),
    plan: () => notWired('plan'),
    code: () => notWired('code'),
    pr: () => notWired('pr'),
  };
}

/** TODO(pipeline): roll back the run's local and remote branch. */
export function createRunFailedHook(_deps: AppStageDeps): RunFailedHook {
  return () => Promise.resolve();
}
