/**
 * The verdict on a published change (pure): which validation commands passed, failed, or failed
 * on the base commit too, whether the reproduction went from fail to pass, whether the change
 * stayed within the plan, and the conclusion. The app shows it as the "Autofix verification"
 * check run (`github/check-run.ts`); the verify stage returns its conclusion.
 */
import type { CommandResult, RepoCoords } from '../contracts.js';
import type { SandboxMode } from '../exec/sandbox-policy.js';
import type { Worktree } from '../text/repo-relative-path.js';

export type VerdictConclusion = 'success' | 'failure' | 'neutral';

/** The reproduction test run on the base commit (it must fail) and on the head (it must pass). */
export interface ReproductionEvidence {
  /** The test's name as its runner prints it. */
  test: string;
  /** The file the reproduction added or changed (repository-relative): part of the scope. */
  file?: string;
  /** The command that ran it. */
  command?: string;
  base: { exitCode: number | null; excerpt: string };
  head: { exitCode: number | null; excerpt?: string; durationMs?: number };
}

export interface VerdictInput {
  /** The commit verified (the PR's head). */
  headSha: string;
  runId: string;
  /** The validation commands as run on the head commit (the code stage's `validation`). */
  validation: readonly CommandResult[];
  /** Commands whose failure already existed on the base commit (not this change's doing). */
  preexisting: readonly string[];
  /** Files the change touched (the code stage's `changes`). */
  changes: readonly { path: string; operation?: string }[];
  /** The plan's files (`FixPlan.file_changes[].path`); absent on a re-run (no plan to compare). */
  planFiles?: readonly string[];
  /** Files the code stage added to the plan, and why: inside the scope. */
  amendments: readonly { path: string; why: string }[];
  sandbox: SandboxMode;
  usage?: { totalTokens: number; costUsd?: number };
  reproduction?: ReproductionEvidence;
  /** The worktree the commands ran in: absolute paths in their output are made relative to it. */
  worktree?: Worktree;
  /** The run's repository, host and issue: the only links and closing keywords kept live. */
  repo?: RepoCoords;
  githubHost?: string;
  issueNumber?: number;
  /**
   * A re-run asked from the Checks UI: the head verified as it is, with the reproduction command
   * its commits name (run as a validation command), or null when they name none.
   */
  rerun?: { reproduction: string | null };
}

export interface Verdict {
  conclusion: VerdictConclusion;
  /** Validation commands that failed and did not already fail on the base commit. */
  failed: CommandResult[];
  passed: CommandResult[];
  /** Validation commands that failed on the base commit too. */
  preexisting: CommandResult[];
  /** Changed files neither in the plan nor amended into it (nor the reproduction's file). */
  outsidePlan: string[];
  /** Changed files outside the plan that an amendment explains. */
  amended: { path: string; why: string }[];
  reproduction: 'none' | 'fail-to-pass' | 'still-fails' | 'passed-on-base';
}

export const passedRun = (r: { exit_code: number | null; timed_out: boolean }): boolean =>
  r.exit_code === 0 && !r.timed_out;

export const plainPath = (path: string): string => path.replace(/^\.\//, '');

/** The changed files outside the plan, with and without an amendment explaining them. */
function scopeOf(input: VerdictInput): Pick<Verdict, 'outsidePlan' | 'amended'> {
  const planned = new Set((input.planFiles ?? []).map(plainPath));
  if (input.reproduction?.file) planned.add(plainPath(input.reproduction.file));
  const why = new Map(input.amendments.map((a) => [plainPath(a.path), a.why]));
  const outsidePlan: string[] = [];
  const amended: { path: string; why: string }[] = [];
  for (const path of new Set(input.changes.map((c) => plainPath(c.path)))) {
    if (input.planFiles === undefined || planned.has(path)) continue;
    const reason = why.get(path);
    if (reason === undefined) outsidePlan.push(path);
    else amended.push({ path, why: reason });
  }
  return { outsidePlan, amended };
}

function reproductionOf(repro: ReproductionEvidence | undefined): Verdict['reproduction'] {
  if (!repro) return 'none';
  if (repro.base.exitCode === 0) return 'passed-on-base';
  return repro.head.exitCode === 0 ? 'fail-to-pass' : 'still-fails';
}

/**
 * Failure when a validation command failed (and did not fail on the base commit already), the
 * reproduction still fails on the head, or the change touched files outside the plan that no
 * amendment explains; neutral when nothing verified the change (no validation command passed and
 * no reproduction went from fail to pass); success otherwise.
 */
export function decideVerdict(input: VerdictInput): Verdict {
  const preexistingNames = new Set(input.preexisting);
  const failedAll = input.validation.filter((r) => !passedRun(r));
  const failed = failedAll.filter((r) => !preexistingNames.has(r.command));
  const preexisting = failedAll.filter((r) => preexistingNames.has(r.command));
  const passed = input.validation.filter(passedRun);
  const { outsidePlan, amended } = scopeOf(input);
  const reproduction = reproductionOf(input.reproduction);
  const conclusion: VerdictConclusion =
    failed.length > 0 || outsidePlan.length > 0 || reproduction === 'still-fails'
      ? 'failure'
      : passed.length === 0 && reproduction !== 'fail-to-pass'
        ? 'neutral'
        : 'success';
  return { conclusion, failed, passed, preexisting, outsidePlan, amended, reproduction };
}
