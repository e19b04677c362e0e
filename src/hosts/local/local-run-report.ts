/** What `autofix run` reports: the outputs stage by stage, the outcome, where things landed. */
import type {
  CodeSummary,
  Commit,
  FixPlan,
  ReproductionOutput,
  StageOutputs,
  StepName,
  TriageResult,
} from '../../contracts.js';

/** A command's result, as far as a report needs it. */
export interface CommandOutcome {
  command: string;
  exit_code: number | null;
  timed_out: boolean;
}

/** What a local run produced, stage by stage (absent: the run ended before it). */
export interface RunIssueResult {
  triage?: TriageResult;
  plan?: FixPlan;
  reproduction?: ReproductionOutput;
  code?: CodeSummary;
  commit?: Commit;
  pr?: { title: string; body: string };
  /** Where the run ended. */
  stage: StepName;
}

export interface LocalRunReport {
  runId: string;
  artifactsDir: string;
  /** `stopped`: a stage ended the run without an error (why: `stopped`); nothing was written. */
  outcome: 'success' | 'dry-run' | 'stopped' | 'failed';
  stopped?: string;
  result?: RunIssueResult;
  /**
   * `validation`: each command's latest result with the change, when the code stage got that far
   * (`details.validation` of its failure): what the reproduction did after the change.
   */
  failure?: { stage: string; code: string; message: string; validation?: CommandOutcome[] };
  prFile?: string;
  /** The repository the branch landed in, and `git show --stat` of the commit. */
  repo?: string;
  diffStat?: string;
  /** Where the artifacts of an earlier run with the same id were moved. */
  previousArtifactsDir?: string;
}

export function resultOf(outputs: StageOutputs, stage: StepName): RunIssueResult {
  return {
    stage,
    ...(outputs.triage ? { triage: outputs.triage } : {}),
    ...(outputs.plan ? { plan: outputs.plan } : {}),
    ...(outputs.reproduce ? { reproduction: outputs.reproduce } : {}),
    ...(outputs.code ? { code: outputs.code.code, commit: outputs.code.commit } : {}),
    ...(outputs.pr ? { pr: { title: outputs.pr.title, body: outputs.pr.body } } : {}),
  };
}

/** The code stage failure's `details.validation` (its latest result of each command), if any. */
export function validationOf(details: unknown): CommandOutcome[] | undefined {
  const list = (details as { validation?: unknown } | undefined)?.validation;
  if (!Array.isArray(list)) return undefined;
  const outcomes = list.filter(
    (v): v is CommandOutcome =>
      typeof (v as CommandOutcome)?.command === 'string' &&
      (typeof (v as CommandOutcome).exit_code === 'number' ||
        (v as CommandOutcome).exit_code === null),
  );
  return outcomes.map(({ command, exit_code, timed_out }) => ({
    command,
    exit_code,
    timed_out: timed_out === true,
  }));
}

/**
 * What the reproduction shows, from its result after the change as well as on the base commit:
 * "passes with the fix" only when its command passed with the change.
 */
export function describeReproduction(report: LocalRunReport): string | undefined {
  const rep = report.result?.reproduction;
  if (!rep) return undefined;
  if (rep.status !== 'reproduced') return `Reproduction: none (${rep.reason})`;
  const base = `Reproduction: ${rep.path} (${rep.command}) failed on the base commit`;
  const after = [...(report.result?.code?.validation ?? []), ...(report.failure?.validation ?? [])]
    .filter((v) => v.command === rep.command)
    .at(-1);
  // Validation stops at its first failure: the reproduction may never have run with the change.
  if (!after) return `${base}; not run with the change`;
  if (after.exit_code === 0 && !after.timed_out) return `${base}, passes with the fix`;
  const how = after.timed_out ? 'timed out' : `exit ${after.exit_code ?? 'none'}`;
  return `${base} and still fails with the change (${how}): the bug is not shown fixed`;
}
