/**
 * The stage table in one process (what `autofix run` does, docs/ARCHITECTURE.md): one workspace for
 * the whole run, the stages of the `fix` route (`ROUTES`, contracts.ts) in order, each stage's
 * output handed to the next in memory. Any failure rolls the workspace back: worktree, local
 * branch, the private ref the code stage kept, and the branch if the publish step had moved it.
 */
import {
  ROUTES,
  type RunPins,
  type StageName,
  type StageOutputMap,
  type StageOutputs,
  type StepName,
} from '../contracts.js';
import { rollbackWorkspace } from '../git/rollback.js';
import {
  closeWorkspace,
  openWorkspace,
  type Workspace,
  type WorkspaceOptions,
} from '../git/workspace.js';
import type { LlmClient } from '../llm/create-llm-client.js';
import type { OverrideReader } from '../llm/load-agent.js';
import type { Logger } from '../logger.js';
import type { ProgressEvent, RepoContext } from './ports.js';
import { prepareContext } from './prepare-context.js';
import { snapshotOverrides } from './snapshot-overrides.js';
import type { RunFacts, StageEnv } from './stages/stage-env.js';
import type { StageTable } from './stages/stage-fn.js';
import { PIPELINE } from './stages/stage-table.js';

export interface RunStagesOptions {
  facts: RunFacts;
  workspace: WorkspaceOptions;
  /** Stop after this stage (a dry run stops after the plan: nothing is written). */
  until?: StageName;
  contextBudget?: number;
  table?: StageTable;
  /** The parts of the environment that are the caller's: sandbox, redactor, models, logs. */
  env: Pick<StageEnv, 'sandbox' | 'redact' | 'model' | 'onValidation' | 'openPullRequest'>;
}

export interface RunStagesPorts {
  llm: LlmClient;
  log: Logger;
  progress?: (event: ProgressEvent) => void;
  signal?: AbortSignal;
}

export interface RunStagesResult {
  outputs: StageOutputs;
  /** Where the run ended: the last stage, or the stop's. */
  stage: StepName;
  stop?: string;
}

/** Thrown by `runStages`: the step it failed in, the error, and the outputs made before. */
export class StagesFailed extends Error {
  constructor(
    readonly stage: StepName,
    readonly error: unknown,
    readonly outputs: StageOutputs,
  ) {
    super(error instanceof Error ? error.message : String(error));
    this.name = 'StagesFailed';
  }
}

const REPORTED = new Set<StepName>([...ROUTES.fix, 'workspace', 'commit']);

/** Runs one stage and records its output under its own name (typed per stage). */
async function runStage<S extends StageName>(
  table: StageTable,
  stage: S,
  env: StageEnv,
  outputs: StageOutputs,
  pins: RunPins,
): Promise<string | undefined> {
  const result = await table[stage](env);
  if (result.kind === 'stop') return result.reason;
  // One process has nobody to wait for: a parking ends the run with its words.
  if (result.kind === 'park') return result.message;
  const output: StageOutputMap[S] = result.output;
  Object.assign(outputs, { [stage]: output });
  Object.assign(pins, result.pins ?? {});
  return undefined;
}

/** The stages' environment in this process: the run's one workspace, contexts kept per issue. */
function localStageEnv(
  options: RunStagesOptions,
  ports: RunStagesPorts,
  ws: Workspace,
  readOverride: OverrideReader,
  run: { pins: RunPins; outputs: StageOutputs; progress: (event: ProgressEvent) => void },
): StageEnv {
  const token = options.workspace.token;
  const contexts = new Map<string, Promise<RepoContext>>();
  return {
    ...options.env,
    facts: options.facts,
    pins: run.pins,
    outputs: run.outputs,
    llm: ports.llm,
    usage: () => {
      const t = ports.llm.usage.totals();
      return { totalTokens: t.totalTokens, costUsd: t.cost };
    },
    log: ports.log,
    ...(ports.signal ? { signal: ports.signal } : {}),
    progress: run.progress,
    workspace: (fn) => fn(ws, { ...(token ? { token } : {}), readOverride }),
    // One ranking per issue text for the whole run (triage adds the guidance once).
    context: (w, issue) => {
      const key = JSON.stringify(issue);
      if (!contexts.has(key)) contexts.set(key, prepareContext(w, issue, options.contextBudget));
      return contexts.get(key)!;
    },
    // One process: nothing to resume, no retry reads a checkpoint.
    checkpoint: { saved: {}, save: () => Promise.resolve() },
  };
}

/**
 * How a stage that went on is shown: done, or skipped when it went on without doing its work (a
 * reproduce stage that wrote no test says why).
 */
export function stageEndEvent(
  stage: StageName,
  outputs: StageOutputs,
  label: string,
): ProgressEvent {
  const reproduction = stage === 'reproduce' ? outputs.reproduce : undefined;
  if (reproduction && reproduction.status !== 'reproduced') {
    return { stage, status: 'skipped', message: `no reproduction: ${reproduction.reason}` };
  }
  return { stage, status: 'done', message: label };
}

/** The `fix` route's stages in order, up to `until` or a stage's stop. */
async function walkRoute(
  options: RunStagesOptions,
  env: StageEnv,
  progress: (event: ProgressEvent) => void,
): Promise<RunStagesResult> {
  const table = options.table ?? PIPELINE;
  for (const stage of ROUTES.fix) {
    const label = stage === 'pr' ? 'pull request' : stage;
    progress({ stage, status: 'start', message: label });
    const stop = await runStage(table, stage, env, env.outputs, env.pins);
    if (stop !== undefined) {
      progress({ stage, status: 'info', message: stop });
      return { outputs: env.outputs, stage, stop };
    }
    progress(stageEndEvent(stage, env.outputs, label));
    if (stage === options.until) return { outputs: env.outputs, stage };
  }
  return { outputs: env.outputs, stage: 'pr' };
}

export async function runStages(
  options: RunStagesOptions,
  ports: RunStagesPorts,
): Promise<RunStagesResult> {
  const outputs: StageOutputs = {};
  const pins: RunPins = {};
  let step: StepName = 'workspace';
  const progress = (event: ProgressEvent): void => {
    // A failure names the stage (or the commit) it happened in, not a command inside it.
    if (event.status === 'start' && REPORTED.has(event.stage)) step = event.stage;
    ports.progress?.(event);
  };
  progress({ stage: 'workspace', status: 'start', message: 'preparing the workspace' });
  const ws = await openWorkspace(options.workspace).catch((err: unknown) => {
    progress({ stage: 'workspace', status: 'failed', message: String(err) });
    throw new StagesFailed('workspace', err, outputs);
  });
  try {
    // The repository's prompt overrides, read at the base before any branch is checked out.
    const readOverride = await snapshotOverrides(ws.worktree);
    const env = localStageEnv(options, ports, ws, readOverride, { pins, outputs, progress });
    progress({
      stage: 'workspace',
      status: 'done',
      message: `workspace ready at ${ws.base_commit.slice(0, 12)}`,
    });
    return await walkRoute(options, env, progress);
  } catch (err) {
    progress({
      stage: step,
      status: 'failed',
      message: err instanceof Error ? err.message : String(err),
    });
    const failedAt = step;
    const report = await rollbackWorkspace(ws, {
      ...(options.workspace.token ? { token: options.workspace.token } : {}),
      logger: ports.log,
    });
    if (report.problems.length > 0)
      ports.log.warn({ problems: report.problems }, 'rollback incomplete');
    throw new StagesFailed(failedAt, err, outputs);
  } finally {
    await closeWorkspace(ws, ports.log).catch((e: unknown) =>
      ports.log.warn({ err: String(e) }, 'workspace cleanup failed'),
    );
  }
}
