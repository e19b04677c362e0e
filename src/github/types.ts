/**
 * Types shared by the GitHub adapters. The client is Probot's Octokit (the one webhook contexts
 * and `probot.auth(installationId)` hand out), so adapters work with either.
 */
import type { ProbotOctokit } from 'probot';

export type GitHubClient = InstanceType<typeof ProbotOctokit>;

export type { RepoCoords } from '../contracts.js';

/** What a reaction or a reply attaches to: the issue/PR itself or one of its comments. */
export type ReactionTarget = { kind: 'issue'; number: number } | { kind: 'comment'; id: number };

export type Reaction = 'eyes' | 'rocket' | 'confused' | '+1';

export type StageState =
  | 'pending'
  | 'queued'
  | 'running'
  | 'done'
  | 'failed'
  | 'skipped'
  /** The run is parked before this stage (or in it): it waits for a maintainer. */
  | 'waiting';

export interface StageStatus {
  state: StageState;
  durationMs?: number;
}

export interface ValidationRow {
  command: string;
  exitCode: number | null;
  durationMs: number;
  timedOut?: boolean;
}

/**
 * Everything the status comment shows. It travels with the run (job data) from stage to stage,
 * so any worker can re-render the comment without asking the others.
 */
export interface StatusFacts {
  /** Stage name → state, in pipeline order. */
  stages: Record<string, StageStatus>;
  /** What started the run, when it is not an issue's label or command (a CI round, a re-run). */
  trigger?: string;
  /** The headline of a successful run that opens no PR (a re-run of the verification). */
  successHeadline?: string;
  risk?: 'LOW' | 'MEDIUM' | 'HIGH';
  summary?: string;
  planSteps?: string[];
  files?: { path: string; operation: string }[];
  validation?: ValidationRow[];
  /** The reproduce stage's word: the test that fails on the base commit, or why there is none. */
  reproduction?: string;
  /** Repair rounds the code stage needed before validation passed. */
  repairs?: number;
  /** What the code agent looked at with its tools: one short line per kind of call. */
  explored?: string;
  /**
   * What a maintainer must know about how the run's commands ran: no sandbox (the operator's
   * AUTOFIX_SANDBOX=none), hosts setup tried and was refused.
   */
  warnings?: string[];
  pr?: { number: number; url: string; draft?: boolean };
  usage?: { totalTokens: number; costUsd?: number };
  /** Set once the run has ended, or while it is parked (`parked`, cleared when it resumes). */
  outcome?: { kind: 'success' | 'stopped' | 'failed' | 'parked'; message?: string };
}

/** What a stage may add to the status comment; stage states are managed by the queue layer. */
export type StatusPatch = Omit<Partial<StatusFacts>, 'stages' | 'outcome'>;
