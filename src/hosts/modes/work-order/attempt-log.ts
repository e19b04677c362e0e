/**
 * What one attempt's TR and PO found (run-attempt.ts), kept as they go and written to
 * `attempt_<N>/` whatever the outcome: write_result.json, verify_result.json,
 * acceptance_result.json, and failure_brief.json on failure.
 */
import type { RunLog } from '../../../artifacts/run-log.js';
import { failureBrief, type FailureStage } from './failure-brief.js';
import { stageOfError } from './stage-of-error.js';
import type { AttemptRecord, CmdResult } from './types.js';
import type { WorkOrder } from './work-order-schema.js';

export interface PhaseResult {
  ok: boolean;
  skipped: boolean;
  results: CmdResult[];
}

export interface AttemptLog {
  /** The attempt's folder, `attempt_<N>`, in the run's. */
  dir: string;
  order: WorkOrder;
  /** The attempt's record; its failure brief is set when it failed. */
  record: AttemptRecord;
  /** What refused or broke the writes (write_result.json). */
  errors: string[];
  written: string[];
  verify: PhaseResult;
  acceptance: PhaseResult;
}

export const messageOf = (err: unknown): string =>
  err instanceof Error ? err.message : String(err);

export function startAttemptLog(
  attempt: number,
  baselineCommit: string,
  order: WorkOrder,
): AttemptLog {
  return {
    dir: `attempt_${attempt}`,
    order,
    record: {
      attempt_index: attempt,
      baseline_commit: baselineCommit,
      proposal_path: null,
      touched_files: [],
      write_ok: false,
      verify: [],
      acceptance: [],
      failure_brief: null,
      rolled_back: false,
    },
    errors: [],
    written: [],
    verify: { ok: false, skipped: true, results: [] },
    acceptance: { ok: false, skipped: true, results: [] },
  };
}

export function failAttempt(
  log: AttemptLog,
  stage: FailureStage,
  what: Parameters<typeof failureBrief>[1],
): void {
  log.record.failure_brief = failureBrief(stage, what, log.order);
}

/** An error that ends the attempt: listed in write_result.json and the attempt's brief. */
export function failOnError(
  log: AttemptLog,
  err: unknown,
  stage: FailureStage = stageOfError(err),
): void {
  log.errors.push(messageOf(err));
  failAttempt(log, stage, { text: messageOf(err) });
}

export function writeAttemptLog(runLog: RunLog, log: AttemptLog): void {
  const { dir, record } = log;
  runLog.json(`${dir}/write_result.json`, {
    write_ok: record.write_ok,
    touched_files: record.touched_files,
    written_files: log.written,
    errors: log.errors,
  });
  runLog.json(`${dir}/verify_result.json`, log.verify);
  runLog.json(`${dir}/acceptance_result.json`, log.acceptance);
  if (record.failure_brief) runLog.json(`${dir}/failure_brief.json`, record.failure_brief);
}
