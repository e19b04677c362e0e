/**
 * Code stage (docs/ARCHITECTURE.md): `setup` and the base commit's own
 * validation (the baseline) run while the model writes one answer per planned file; all answers
 * are applied together or not at all, then the repository's own checks; on any refusal or
 * failure the code fixer gets a bounded brief, the newest content of every changed file and its
 * own earlier debug notes, up to `max_repair_attempts` times. A failing `setup` on the base commit
 * ends the run (`SETUP_FAILED`) without a repair; a failure that already exists on the base commit
 * is reported, not sent to the fixer (`baseline.ts` has the rule). A run that fails reports the
 * root cause first: the last failing validation command, then what the repairs did after it.
 * The rounds run on the shared repair loop (`repair-loop.ts`), as the local modes' do.
 */
import type { EditFormat, RepoConfig } from '../../config/repo-config.js';
import type { CodeSummary, FixPlan } from '../../contracts.js';
import type { StyleConfig } from '../../context/detect-style.js';
import type { ApplyEditsResult } from '../../edits/index.js';
import type { ExecResult, ValidationPhase, ValidationRun } from '../../exec/index.js';
import type { IssueInput, PipelinePorts } from '../ports.js';
import type { Baseline } from './baseline.js';
import { createCodeSession } from './code-session.js';
import { oneShotRounds } from './one-shot-rounds.js';
import { repairLoop } from './repair-loop.js';
import { toolRounds, type ToolRoundsOptions } from './tool-rounds.js';

/** The work tree, seen by the code stage. */
export interface CodeWorkspace {
  readFile(path: string): Promise<string | undefined>;
  /** Applies the answers as one change set, refusing paths outside `scope` (throws AutofixError). */
  apply(
    format: EditFormat,
    texts: readonly string[],
    /** Absent: any path the repository's policy allows (the tool loop's edits). */
    scope?: readonly string[],
  ): Promise<ApplyEditsResult>;
  /** `setup` on the base commit; undefined when the repository has none. */
  setup(hooks: CommandHooks): Promise<ValidationRun | undefined>;
  /** The base commit's own validation (cached); null when turned off or nothing validates. */
  baseline(
    hooks: CommandHooks,
  ): Promise<{ baseline: Baseline; cached: boolean; run?: ValidationRun } | null>;
  validate(
    options: CommandHooks & {
      skipSetup: boolean;
      tolerate?: (result: ExecResult) => string | undefined;
    },
  ): Promise<ValidationRun>;
  /** Runs these commands as validation would (sandboxed, no setup): the model's test runs. */
  runCommands?(commands: readonly string[], hooks: CommandHooks): Promise<ValidationRun>;
  /** Commands that must pass beyond `validate` (the reproduction's). */
  mustPass?(): string[];
}

export interface CommandHooks {
  onStart?: (line: string, phase: ValidationPhase) => void;
  onResult?: (result: ExecResult, phase: ValidationPhase) => void;
  signal?: AbortSignal;
}

/** Which validation a log holds. */
export type ValidationKind = 'setup' | 'baseline' | 'change';

export interface CodeInput {
  issue: IssueInput;
  plan: FixPlan;
  config: Pick<
    RepoConfig,
    'edit_format' | 'max_repair_attempts' | 'allow_plan_amendments' | 'validate'
  >;
  model: string;
  style: StyleConfig;
  codeContext: string;
  /** Parallel LLM calls for the first round. */
  concurrency?: number;
  /** Work with tools (`code_strategy` resolved to `tools`); absent: one-shot. */
  tools?: ToolRoundsOptions;
}

/** What the code agent found and did: the one definition is `CodeSummary` (contracts.ts). */
export type CodeResult = CodeSummary;

export interface CodePorts extends PipelinePorts {
  workspace: CodeWorkspace;
  /** Called with each validation run; returns the artifact that holds its log, if any. */
  onValidation?: (run: ValidationRun, kind: ValidationKind) => string | undefined;
}

export async function runCodeAgent(input: CodeInput, ports: CodePorts): Promise<CodeResult> {
  const session = await createCodeSession(input, ports);
  ports.progress?.({
    stage: 'code',
    status: 'start',
    message: `writing ${input.plan.file_changes.length} planned file change(s)`,
  });
  const options = {
    maxRepairs: input.config.max_repair_attempts,
    ...(ports.signal ? { signal: ports.signal } : {}),
  };
  const outcome = input.tools
    ? await repairLoop(options, toolRounds(session, input.tools))
    : await repairLoop(options, oneShotRounds(session));
  return session.result(outcome);
}
