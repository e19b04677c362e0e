/** Data contracts shared by stages (DESIGN.md §3). Names are kept; fields may grow. */

/** The pipeline's stages, in order: one list for the in-process runner and the queue. */
export const STAGES = ['triage', 'plan', 'code', 'pr'] as const;
export type StageName = (typeof STAGES)[number];

/** A step a run reports progress for or fails in: a stage, or a step within one. */
export type StepName = StageName | 'workspace' | 'setup' | 'validate' | 'commit';

export type Risk = 'LOW' | 'MEDIUM' | 'HIGH';
export type CommitType = 'fix' | 'feat' | 'docs' | 'chore' | 'refactor';

export interface TriageResult {
  risk: Risk;
  classification: CommitType;
  affected_files: string[];
  summary: string;
}

export interface PlanStep {
  id: string;
  description: string;
}

export interface FileChangePlan {
  path: string;
  operation: 'CREATE' | 'MODIFY' | 'DELETE';
  line_range?: [number, number];
}

export interface FixPlan {
  branch_name: string;
  commit_type: CommitType;
  scope: string;
  /**
   * The description part of the commit subject `type(scope): description` (and so of the PR
   * title): imperative, what the change does. Optional: plans from before it, or a model that
   * leaves it out, get one from the steps (`src/pipeline/commit-subject.ts`).
   */
  commit_subject?: string;
  plan_steps: PlanStep[];
  file_changes: FileChangePlan[];
  validation_commands: string[];
}

export interface FileChange {
  /** Repository-relative POSIX path. */
  path: string;
  op: 'write' | 'delete';
  /** Full new content for `write`. */
  content?: string;
  /** sha256 (hex) the file must have on disk before the change (json-writes); empty-bytes hash for new files. */
  baseSha256?: string;
}

export interface ChangeSet {
  files: FileChange[];
  notes: { user: string[]; debug: string[] };
}

export interface CommandResult {
  command: string;
  exit_code: number | null;
  stdout: string;
  stderr: string;
  duration_ms: number;
  timed_out: boolean;
  /** Signal that ended the process, if any. */
  signal?: string | null;
  /** Whether the command ran inside the bubblewrap sandbox. */
  sandboxed?: boolean;
}

export interface Commit {
  issue_number: number;
  message: string;
  diff: string;
  files_changed: string[];
  validation_results: CommandResult[];
  sha: string;
  branch: string;
  timestamp: string;
}
