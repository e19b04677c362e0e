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
  failure?: { stage: string; code: string; message: string };
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
