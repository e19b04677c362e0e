/**
 * A run as one record: what started it and the facts fixed at intake (`RunJobData`), then, as it
 * goes, each stage's record (timing, attempts, model, tokens, cost), its outputs and pins, the
 * checkpoint of the stage in progress, a parking when it waits for a person or for money, and its
 * ending. Stage jobs carry only the run id (`StageJobData`); every process reads and writes the
 * run through a `RunStore` (Redis for the app, memory for `autofix run`). The status comment, the
 * status page and the run page all render from this record.
 */
import type { BudgetCapHit, ParkReason, RouteName, StageName } from '../contracts.js';

export type { BudgetCapHit, ParkReason } from '../contracts.js';
import type { StatusFacts } from '../github/types.js';
import type { RunFailure, RunJobData } from './types.js';

/** A stage job's payload: which run. The stage is the job's queue. */
export interface StageJobData {
  runId: string;
}

/** How a run ended. */
export type RunEnding =
  /** `status`: the final status comment's facts, to publish them again if need be. */
  | { outcome: 'finished'; stop?: { reason: string }; status: StatusFacts }
  | { outcome: 'failed'; failure: RunFailure }
  /** The app lost the installation or the repository: ended without a word to it. */
  | { outcome: 'abandoned'; reason: string };

/** Tokens and money one stage (or a whole run) used. */
export interface RunUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  costUsd: number;
  /** Calls whose model has no price: their tokens count, their cost is 0. */
  unpricedCalls: number;
  /** The most one call has cost so far (the estimate of the next call). */
  maxCallCostUsd: number;
}

export interface StageRecord {
  /** Attempts started (1 on the first). */
  attempts: number;
  /** Epoch ms of the first attempt's start, and of the end of the last. */
  startedAt?: number;
  endedAt?: number;
  /** Epoch ms the latest attempt started. */
  lastStartedAt?: number;
  /** Milliseconds the attempts took, summed. */
  durationMs?: number;
  state: 'running' | 'done' | 'stopped' | 'parked' | 'failed';
  /** The models the stage's calls used. */
  models?: string[];
  usage?: RunUsage;
}

export interface RunParking {
  reason: ParkReason;
  /** The stage that runs when the run resumes (its earlier stages never run again). */
  resumeAt: StageName;
  /** Said in the status comment, e.g. "paused at $1.94 of $2.00 after plan; …". */
  message: string;
  /** Epoch ms parked, and when the parking expires (the run then ends with a note). */
  at: number;
  expiresAt: number;
  /** For a budget parking: which cap, and what it was when the run parked. */
  cap?: BudgetCapHit;
}

export interface RunResumption {
  /** The login that resumed the run. */
  by: string;
  at: number;
  reason: ParkReason;
  /** The trigger that resumed it: a redelivery of the same command resumes nothing twice. */
  key: string;
  /** Where the run went on. */
  stage: StageName;
}

/** What became of the run's PR after it was opened. */
export interface PrOutcome {
  outcome: 'merged' | 'closed' | 'reverted';
  at: number;
}

export interface Run extends RunJobData {
  route: RouteName;
  /** Per stage, once it has started. */
  stages: Partial<Record<StageName, StageRecord>>;
  /** The run's usage so far, all stages summed. */
  usage: RunUsage;
  /** USD a maintainer's `/autofix continue` added to the run's own cap (0 until then). */
  extraBudgetUsd: number;
  parked?: RunParking;
  /** Resumptions so far: who said `/autofix continue`/`approve`, when, after which parking. */
  resumes: RunResumption[];
  ending?: RunEnding & { at: number };
  prOutcome?: PrOutcome;
  /** Incremented by every write (the store's compare-and-set). */
  rev: number;
  updatedAt: number;
}

export const EMPTY_USAGE: RunUsage = {
  promptTokens: 0,
  completionTokens: 0,
  totalTokens: 0,
  costUsd: 0,
  unpricedCalls: 0,
  maxCallCostUsd: 0,
};

/** The sum of two usages (a stage's into the run's). */
export function addUsage(a: RunUsage, b: RunUsage): RunUsage {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    costUsd: a.costUsd + b.costUsd,
    unpricedCalls: a.unpricedCalls + b.unpricedCalls,
    maxCallCostUsd: Math.max(a.maxCallCostUsd, b.maxCallCostUsd),
  };
}

/** A new run's record, from what intake fixed. */
export function newRun(data: RunJobData, route: RouteName, now: number): Run {
  return {
    ...data,
    route,
    stages: {},
    usage: { ...EMPTY_USAGE },
    extraBudgetUsd: 0,
    resumes: [],
    rev: 0,
    updatedAt: now,
  };
}

/** Thrown by `RunStore.update` when the run does not exist (expired, or never created). */
export class RunNotFoundError extends Error {
  constructor(readonly runId: string) {
    super(`run ${runId} is not in the run store`);
    this.name = 'RunNotFoundError';
  }
}

/**
 * Where runs live. `update` applies `change` to the current record and writes it only if nobody
 * wrote in between (compare-and-set on `rev`, retried), so a parking's expiry and a maintainer's
 * `/autofix continue` racing each other cannot both win.
 */
export interface RunStore {
  /** Writes a new run; false (and nothing written) when one with that id exists. */
  create(run: Run): Promise<boolean>;
  get(runId: string): Promise<Run | undefined>;
  /** Deletes a run nothing has written to since `create` (its first job could not be queued). */
  discard(runId: string): Promise<void>;
  /** `change` returns the new record, or undefined to leave it as it is. Answers what is stored. */
  update(runId: string, change: (run: Run) => Run | undefined): Promise<Run>;
  /** Run ids, newest first (accepted at), at most `limit`. */
  recent(limit: number): Promise<string[]>;
  /** Ids of runs parked now. */
  parked(): Promise<string[]>;
  /** The run parked on an issue or PR (`owner/repo#n`), if one is. */
  parkedOn(repoFullName: string, conversation: number): Promise<string | undefined>;
}
