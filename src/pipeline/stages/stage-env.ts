/**
 * What a stage function receives (the stage table, `stage-table.ts`): the run's facts, what the
 * earlier stages produced, and its I/O as ports. The in-process runner (`run-stages.ts`, for
 * `autofix run`) and the BullMQ adapter (`src/hosts/app/stages/`) each build it their own way: one
 * workspace for the whole run, or one per stage job.
 */
import type { Redactor } from '../../artifacts/redact.js';
import type { RepoConfig } from '../../config/repo-config.js';
import type {
  BranchFacts,
  StageCheckpoint,
  PullRequestOutput,
  RunPins,
  StageName,
  StageOutputMap,
  StageOutputs,
  TriageResult,
} from '../../contracts.js';
import { AutofixError } from '../../errors.js';
import type { SandboxPolicy } from '../../exec/index.js';
import type { VerdictInput } from '../../verdict/decide-verdict.js';
import type { Workspace } from '../../git/workspace.js';
import type { LlmClient } from '../../llm/create-llm-client.js';
import type { OverrideReader } from '../../llm/load-agent.js';
import type { Logger } from '../../logger.js';
import type { CodePorts } from '../code/run-code-agent.js';
import type { IssueInput, ProgressEvent, RepoContext } from '../ports.js';

/** Facts fixed when the run starts (at intake for the app), read from here afterwards. */
export interface RunFacts extends BranchFacts {
  runId: string;
  /** The issue as prompts see it (sanitised), with the trigger's instructions. */
  issue: IssueInput;
  config: RepoConfig;
  baseBranch: string;
  /** How the user starts over, for a refused branch. */
  startOverHint: string;
  /** The repository's GitHub host, for links in the PR body (absent for a local run). */
  githubHost?: string;
  /** The run page's signed link, for the PR body (the app with PUBLIC_URL set only). */
  runPage?: string;
  /** A maintainer's changes to an earlier plan (`/autofix plan …`), sanitized, oldest first. */
  planNotes?: readonly string[];
}

export interface WorkspaceIo {
  /** For git over HTTPS; never stored. */
  token?: string;
  /** The repository's prompt overrides, read at the base commit. */
  readOverride: OverrideReader;
}

export type { StageCheckpoint } from '../../contracts.js';

export interface PullRequestRequest {
  branch: string;
  /** Absent for a commit on an open PR (its title and body stay the maintainers'). */
  text?: { title: string; body: string };
  triage: TriageResult;
}

/** What opening the PR found: the PR, or that the feedback run's PR was closed meanwhile. */
export type PullRequestOpened =
  { kind: 'open'; pr: NonNullable<PullRequestOutput['pr']> } | { kind: 'closed'; reason: string };

export interface StageEnv {
  facts: RunFacts;
  pins: RunPins;
  outputs: StageOutputs;
  llm: LlmClient;
  model: (stage: StageName) => string;
  /** The run's tokens and cost so far, this stage's included. */
  usage: () => { totalTokens: number; costUsd: number };
  log: Logger;
  signal?: AbortSignal;
  progress?: (event: ProgressEvent) => void;
  /** The repository at the run's base commit (one per stage job in the app; one per local run). */
  workspace: <T>(fn: (ws: Workspace, io: WorkspaceIo) => Promise<T>) => Promise<T>;
  /** The ranked repository context for the issue (a local run computes it once). */
  context: (ws: Workspace, issue: IssueInput) => Promise<RepoContext>;
  checkpoint: StageCheckpoint;
  /** The operator's sandbox for repository commands. */
  sandbox: SandboxPolicy;
  redact: Redactor;
  onValidation?: CodePorts['onValidation'];
  /** Before the code stage's work (the app prunes old run logs). */
  beforeCode?: () => Promise<void>;
  /** Opens or updates the PR once the branch is published; absent: a local run keeps the text. */
  openPullRequest?: (request: PullRequestRequest) => Promise<PullRequestOpened>;
  /** Publishes the run's verdict on the published commit (the app: a Check Run). */
  publishVerdict?: (verdict: VerdictInput) => Promise<void>;
}

/** An earlier stage's output; a table whose order does not provide it is a bug, said loudly. */
export function earlier<S extends StageName>(env: StageEnv, stage: S): StageOutputMap[S] {
  const value = env.outputs[stage];
  if (value === undefined) {
    throw new AutofixError('INTERNAL', `the ${stage} stage's output is missing`, {
      recoverable: false,
    });
  }
  return value;
}

/** The issue as every stage's prompts see it: the run's, with the guidance triage pinned. */
export function issueOf(env: Pick<StageEnv, 'facts' | 'pins'>): IssueInput {
  return env.pins.guidance ? { ...env.facts.issue, guidance: env.pins.guidance } : env.facts.issue;
}

export function signalOf(env: Pick<StageEnv, 'signal'>): { signal?: AbortSignal } {
  return env.signal ? { signal: env.signal } : {};
}
