/** Data contracts shared by stages (docs/CONTRACTS.md). Names are kept; fields may grow. */
import type { ErrorShape } from './errors.js';

/** Every stage the pipeline has: one queue and one worker each. */
export const STAGES = ['triage', 'plan', 'reproduce', 'code', 'pr', 'verify'] as const;
export type StageName = (typeof STAGES)[number];

/**
 * The stages a run goes through, in order, by what the run is: a fix (every issue, feedback or CI
 * round), or the verification of a PR's head again (a re-run asked from the Checks UI).
 */
export const ROUTES = {
  fix: ['triage', 'plan', 'reproduce', 'code', 'pr'],
  verify: ['verify'],
} as const satisfies Record<string, readonly StageName[]>;
export type RouteName = keyof typeof ROUTES;

/** The stage after `stage` on `route`, or undefined after its last. */
export function nextStageOn(route: RouteName, stage: StageName): StageName | undefined {
  const stages: readonly StageName[] = ROUTES[route];
  const at = stages.indexOf(stage);
  return at < 0 ? undefined : stages[at + 1];
}

/**
 * The stages that run the repository's `setup` (in their own worktree): an earlier one of a run
 * hands what it installed to the next (exec/setup-cache/handoff.ts).
 */
export const SETUP_STAGES: readonly StageName[] = ['reproduce', 'code', 'verify'];

/** The next stage after `stage` on `route` that runs `setup`, or undefined. */
export function nextSetupStageOn(route: RouteName, stage: StageName): StageName | undefined {
  const stages: readonly StageName[] = ROUTES[route];
  const at = stages.indexOf(stage);
  if (at < 0) return undefined;
  return stages.slice(at + 1).find((s) => SETUP_STAGES.includes(s));
}

/** One value per stage, in `STAGES` order: the queue layer's per-stage records come from here. */
export function byStage<T>(make: (stage: StageName) => T): Record<StageName, T> {
  return Object.fromEntries(STAGES.map((stage) => [stage, make(stage)])) as Record<StageName, T>;
}

/** A step a run reports progress for or fails in: a stage, or a step within one. */
export type StepName = StageName | 'workspace' | 'setup' | 'validate' | 'commit';

export type Risk = 'LOW' | 'MEDIUM' | 'HIGH';
export type CommitType = 'fix' | 'feat' | 'docs' | 'chore' | 'refactor';

export interface TriageResult {
  risk: Risk;
  classification: CommitType;
  affected_files: string[];
  summary: string;
  /**
   * The ranking's top files and why each ranks (not the model's words: filled by the triage stage
   * from the ranking it showed the model), at most `MAX_RANKED_NOTES` (the run page shows them).
   */
  ranked?: RankedFileNote[];
}

/** A file the ranking put near the top, with its reasons, most important first (bounded). */
export interface RankedFileNote {
  path: string;
  reasons: string[];
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

/** What the code stage learned, bounded for the job payload (no file contents, output tails only). */
export interface CodeSummary {
  changes: { path: string; operation: 'created' | 'modified' | 'deleted' }[];
  validation: CommandResult[];
  warnings: string[];
  notes: { user: string[]; debug: string[] };
  amendments: { path: string; why: string }[];
  /** Repair rounds used (0 = the first answer passed). */
  repairs: number;
  /** The base commit's validation: whether it came from the cache, and what already failed. */
  baseline: { commit: string; cached: boolean; failing: string[] } | null;
  /** Commands whose failure after the change already existed on the base commit. */
  preexisting: string[];
  /** What the code agent looked at, in order, when it worked with tools (`code_strategy`). */
  exploration?: Exploration;
}

/** The tool loop's account: each call in one line, and why each round's loop ended. */
export interface Exploration {
  steps: { round: number; tool: string; summary: string; error: boolean }[];
  ends: string[];
}

/**
 * The validated commit, kept on the run's private ref (`refs/autofix/runs/<run id>`) until the
 * publish step moves it to the branch: no branch, PR or CI sees it before every stage said yes.
 */
export interface KeptCommit {
  ref: string;
  sha: string;
}

/** The code stage's output: what the later stages and the publish step need. */
export interface CodeOutput {
  commit: Commit;
  code: CodeSummary;
  branch: {
    name: string;
    /** Where the remote branch was before this run (null: it did not exist). */
    remoteShaBefore: string | null;
    kept: KeptCommit;
  };
}

/** The last stage's output: the PR text, and the PR once published (absent for a local run). */
export interface PullRequestOutput {
  title: string;
  body: string;
  /** The branch the commit was published to. */
  branch: string;
  pr?: { number: number; url: string; draft: boolean };
}

/** A test that shows the bug: it failed on the base commit; the fix must make it pass. */
export interface Reproduction {
  /** Repository-relative path of the new test file; committed with the fix. */
  path: string;
  content: string;
  /** Runs just this test (a runner and the path). */
  command: string;
  test_name: string;
  /** The failing part of its output on the base commit, and its exit code there. */
  base_failure: string;
  base_exit_code: number | null;
}

/** The reproduce stage's output: the test, or why there is none (then the run goes on). */
export type ReproductionOutput =
  | ({ status: 'reproduced'; duration_ms: number } & Reproduction)
  | {
      status: 'skipped' | 'not-reproduced';
      /** A sentence for people (the PR body, comments). */
      reason: string;
      duration_ms: number;
      /** The failure in its own words (a validator's), for the run's artifacts and logs only. */
      detail?: string;
    };

/** A PR head verified again (`check_run.rerequested`): what ran on it, and the verdict. */
export interface VerifyOutput {
  headSha: string;
  validation: CommandResult[];
  conclusion: 'success' | 'failure' | 'neutral';
}

/** Each stage's output, by stage: the compiler checks every stage against this one map. */
export interface StageOutputMap {
  triage: TriageResult;
  plan: FixPlan;
  reproduce: ReproductionOutput;
  code: CodeOutput;
  pr: PullRequestOutput;
  verify: VerifyOutput;
}

export type StageOutputs = { [S in StageName]?: StageOutputMap[S] };

/** Facts the first stage fixes for the rest of the run. */
export interface RunPins {
  /**
   * The base branch commit triage worked from. Later stages work from it too, so the plan and the
   * code see the code triage saw, and a worker that already has it skips a fetch.
   */
  baseCommit?: string;
  /**
   * The repository's guidance for agents (AGENTS.md, CLAUDE.md, copilot instructions) as triage
   * read it at the base commit: every later stage shows the same, never a PR branch's.
   */
  guidance?: string;
}

/** A repository as GitHub's REST API addresses it. */
export interface RepoCoords {
  owner: string;
  repo: string;
}

/** What a stage saved before a side effect it cannot take back, for its own retry or resumption. */
export interface StageCheckpoint {
  /** An earlier attempt's, under the stage's name (e.g. `saved.code`); empty on a first one. */
  saved: StageOutputs;
  /** Persists `value` (awaited: it must be durable before the side effect). */
  save(value: StageOutputs): Promise<void>;
}

/** Why a run waits instead of going on (a stage's `park`). */
export type ParkReason =
  /** `plan_approval`: a write-access user answers `/autofix approve` or `/autofix plan …`. */
  | 'plan-approval'
  /** The next call would cross a money (or, for unpriced models, token) cap. */
  | 'budget'
  /** The LLM endpoint stayed unavailable past its retries. */
  | 'llm-unavailable';

/** A cap the next LLM call would cross. */
export interface BudgetCapHit {
  scope: 'run' | 'installation-day' | 'installation-month' | 'requester-day' | 'run-tokens';
  /** USD, or tokens for `run-tokens`. */
  limit: number;
  spent: number;
}

/** What a stage answers, in either runner (the app's queue, `autofix run`). */
export type StageAnswer<O> =
  /** Done: `output` becomes `outputs[stage]`; `pins` are merged into the run's. */
  | { kind: 'continue'; output: O; pins?: RunPins }
  /** End the run here without an error (e.g. nothing to change); `reason` is shown to users. */
  | { kind: 'stop'; reason: string; output?: O }
  /**
   * Wait: the run keeps its checkpoint and resumes at this stage when a maintainer says so, or at
   * the next one when `output` is given (the stage is done). `autofix run` stops there instead.
   */
  | { kind: 'park'; reason: ParkReason; message: string; output?: O; cap?: BudgetCapHit };

/** How a run failed for good: the stage, the error, the attempts made (the last included). */
export interface RunFailure {
  stage: StageName;
  error: ErrorShape;
  attempts: number;
}

/**
 * What to do with a bot branch an earlier run left for the issue (git/branch.ts):
 * - `extend`: commit on top of it (a feedback run on its PR);
 * - `replace`: start it again from the base (`/autofix fresh`);
 * - `replace-bot-only`: replace it when every commit on it is the bot's, else refuse (a
 *   maintainer's commits are never thrown away without being asked);
 * - `refuse`: `BRANCH_EXISTS`, naming the branch and `startOverHint`.
 */
export type ExistingBranchPolicy = 'extend' | 'replace' | 'replace-bot-only' | 'refuse';

/** The facts intake fixes about a run's branch and PR; both runners read them as they are. */
export interface BranchFacts {
  /** A feedback run: a new commit on the bot's open PR and its branch. */
  feedback?: { prNumber: number; branch: string };
  /** `/autofix fresh` with an open PR: the earlier run's branch this run replaces. */
  replaceBranch?: string;
  existingBranch: ExistingBranchPolicy;
  /** Trailers the run's commit carries besides issue and run (a CI follow-up round's). */
  commitTrailers?: readonly { key: string; value: string }[];
  /** A verification run (route `verify`): the bot PR's commit to verify again. */
  verify?: { prNumber: number; branch: string; headSha: string };
}
