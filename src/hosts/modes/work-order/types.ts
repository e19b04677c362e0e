/** The work order's records, as written to the artifacts (types only; snake_case on disk). */
import type { FailureBrief } from './failure-brief.js';

export interface CmdResult {
  command: string[];
  /** -1 when the process ended without an exit code (killed by a signal). */
  exit_code: number;
  stdout_trunc: string;
  stderr_trunc: string;
  /** Full output files, relative to `<out>/<run_id>/`. */
  stdout_path: string;
  stderr_path: string;
  duration_seconds: number;
  timed_out: boolean;
}

export interface AttemptRecord {
  attempt_index: number;
  baseline_commit: string;
  /** Relative to `<out>/<run_id>/`; null when the answer was not a valid WriteProposal. */
  proposal_path: string | null;
  touched_files: string[];
  write_ok: boolean;
  verify: CmdResult[];
  acceptance: CmdResult[];
  failure_brief: FailureBrief | null;
  /** `git reset --hard` + `git clean -fd` ran after this attempt. */
  rolled_back: boolean;
}

export interface RunSummary {
  run_id: string;
  work_order_id: string | null;
  work_order_sha256: string | null;
  verdict: 'PASS' | 'FAIL';
  repo: string;
  baseline_commit: string | null;
  max_attempts: number;
  llm_model: string;
  llm_temperature: number;
  timeout_seconds: number;
  /** The global verification commands every attempt ran before the acceptance commands. */
  verify_commands: string[][];
  attempts: AttemptRecord[];
  /** git tree hash of the work tree after the passing attempt (null unless PASS). */
  repo_tree_hash_after: string | null;
  /** What ended a failed run: preflight, the last attempt's brief, or an exception. */
  failure_brief: FailureBrief | null;
}
