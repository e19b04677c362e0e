/**
 * How a run's record changes as its stages go (pure: each takes the record and answers the next
 * one; the store writes it). The queue layer calls them; so does `autofix run`'s runner.
 */
import type { RunPins, StageName, StageOutputs } from '../contracts.js';
import type { StatusFacts } from '../github/types.js';
import {
  addUsage,
  type ParkReason,
  type Run,
  type RunParking,
  type RunUsage,
  type StageRecord,
} from './run-record.js';
import type { RunEnding } from './run-record.js';

/** What one attempt of a stage used and how long it took. */
export interface AttemptAccount {
  durationMs: number;
  usage?: RunUsage;
  models?: readonly string[];
}

function withStage(run: Run, stage: StageName, record: StageRecord): Run {
  return { ...run, stages: { ...run.stages, [stage]: record } };
}

/** An attempt of `stage` starts. */
export function stageStarted(run: Run, stage: StageName, now: number): Run {
  const before = run.stages[stage];
  return withStage(run, stage, {
    ...before,
    attempts: (before?.attempts ?? 0) + 1,
    startedAt: before?.startedAt ?? now,
    lastStartedAt: now,
    state: 'running',
  });
}

/** `stage` waits before its first attempt (parked by a check in front of it). */
export function stageWaiting(run: Run, stage: StageName): Run {
  const before = run.stages[stage];
  return withStage(run, stage, { ...before, attempts: before?.attempts ?? 0, state: 'parked' });
}

/** An attempt of `stage` ended in `state`: its time and usage are added to the stage and the run. */
export function attemptEnded(
  run: Run,
  stage: StageName,
  state: StageRecord['state'],
  account: AttemptAccount,
  now: number,
): Run {
  const before = run.stages[stage] ?? { attempts: 1, state };
  const usage = account.usage;
  const models = [...new Set([...(before.models ?? []), ...(account.models ?? [])])];
  return {
    ...withStage(run, stage, {
      ...before,
      state,
      endedAt: now,
      durationMs: (before.durationMs ?? 0) + account.durationMs,
      ...(models.length > 0 ? { models } : {}),
      ...(usage ? { usage: before.usage ? addUsage(before.usage, usage) : usage } : {}),
    }),
    usage: usage ? addUsage(run.usage, usage) : run.usage,
  };
}

/** `stage` answered: its output and pins join the run; its checkpoint is dropped. */
export function stageOutput(
  run: Run,
  stage: StageName,
  output: unknown,
  pins: RunPins | undefined,
  status: StatusFacts,
): Run {
  return {
    ...run,
    ...(output === undefined
      ? {}
      : { outputs: { ...run.outputs, [stage]: output } as StageOutputs }),
    ...(pins ? { pins: { ...run.pins, ...pins } } : {}),
    checkpoint: undefined,
    status,
  };
}

/** The run waits; it resumes at `parking.resumeAt` (its checkpoint kept when that is the same stage). */
export function parked(run: Run, parking: RunParking, status: StatusFacts): Run {
  return { ...run, parked: parking, status };
}

/** A maintainer (or an approval) resumed the run: the parking is cleared and the resumption kept. */
export function resumed(run: Run, request: ResumeRequest, now: number): Run {
  const parking = run.parked!;
  const stage = request.resumeAt ?? parking.resumeAt;
  // The comment no longer says paused; the stage it goes on with is queued.
  const facts = { ...run.status };
  delete facts.outcome;
  return {
    ...run,
    parked: undefined,
    extraBudgetUsd: run.extraBudgetUsd + (request.grantAnotherCap ? anotherCap(run) : 0),
    ...(request.planNote ? { planNotes: [...(run.planNotes ?? []), request.planNote] } : {}),
    status: { ...facts, stages: { ...facts.stages, [stage]: { state: 'queued' } } },
    resumes: [
      ...run.resumes,
      { by: request.by, at: now, reason: parking.reason, key: request.key, stage },
    ],
  };
}

/** USD one more run cap is, when the run parked at its own cap (else 0). */
export function anotherCap(run: Pick<Run, 'parked' | 'extraBudgetUsd'>): number {
  const cap = run.parked?.cap;
  return cap?.scope === 'run' ? Math.max(0, cap.limit - run.extraBudgetUsd) : 0;
}

/** A maintainer's word that resumes a parked run. */
export interface ResumeRequest {
  /** Their login. */
  by: string;
  /** The trigger's key: the same command delivered again resumes nothing twice. */
  key: string;
  /** Where to go on (default: where the run parked): `plan` to re-plan. */
  resumeAt?: StageName;
  /** Words for the planner (`/autofix plan …`), sanitized. */
  planNote?: string;
  /** After the run's own cap: allow that cap once more (`/autofix continue`). */
  grantAnotherCap?: boolean;
  /** Only a run parked for one of these reasons resumes. */
  reasons?: readonly ParkReason[];
}

/** The run ended; a parking it had is over. */
export function ended(run: Run, how: RunEnding, now: number): Run {
  return { ...run, parked: undefined, ending: { ...how, at: now } };
}

export type { ParkReason };
