/** Names derived from a run: job ids, where its comments go, what its reactions attach to. */
import { cloneUrlHost } from '../text/repo-url.js';
import type { ReactionTarget, RepoCoords } from '../github/types.js';
import { nextStageOn } from '../contracts.js';
import {
  ROUTES,
  type RouteName,
  type RunFactsData,
  type RunJobData,
  type StageName,
} from './types.js';

/**
 * Job id of a run's stage. BullMQ refuses custom ids with exactly one `:`, so the separator is
 * `-`; the same id for the same run and stage makes enqueueing idempotent.
 */
export function jobIdFor(runId: string, stage: StageName): string {
  return `${runId}-${stage}`;
}

/**
 * The queue's job id of a run's stage: `jobIdFor` until the run was first resumed, then with the
 * resumption's number, so a stage that runs again after a parking (a re-plan) is a new job while a
 * retried or re-added one is still the same.
 */
export function stageJobId(
  run: { runId: string; resumes?: readonly unknown[] },
  stage: StageName,
): string {
  const resumes = run.resumes?.length ?? 0;
  return resumes === 0 ? jobIdFor(run.runId, stage) : `${jobIdFor(run.runId, stage)}-r${resumes}`;
}

/** A run's route: the verification of a PR's head again, or a fix. */
export function routeOfFacts(facts: Pick<RunFactsData, 'verify'>): RouteName {
  return facts.verify ? 'verify' : 'fix';
}

/** The stages of the job's run, in order. */
export function stagesOf(data: Pick<RunJobData, 'facts'>): readonly StageName[] {
  return ROUTES[routeOfFacts(data.facts)];
}

export function nextStage(
  data: Pick<RunJobData, 'facts'>,
  stage: StageName,
): StageName | undefined {
  return nextStageOn(routeOfFacts(data.facts), stage);
}

export function repoOf(data: Pick<RunJobData, 'repository'>): RepoCoords {
  return { owner: data.repository.owner, repo: data.repository.name };
}

/** The GitHub host of the run's repository (see text/repo-url.ts). */
export function githubHostOf(data: Pick<RunJobData, 'repository'>): string | undefined {
  return cloneUrlHost(data.repository.cloneUrl);
}

export type FeedbackTrigger = Extract<RunJobData['trigger'], { kind: 'pr-feedback' }>;

/**
 * The feedback that started the run when it is a feedback run (`/autofix` on the bot's PR), else
 * undefined: the one place that decides it. Its PR, branch and review travel in the trigger.
 */
export function feedbackOf(data: Pick<RunJobData, 'trigger'>): FeedbackTrigger | undefined {
  return data.trigger.kind === 'pr-feedback' ? data.trigger : undefined;
}

/** The issue or PR where the run talks: the PR for feedback runs, else the issue. */
export function conversationOf(data: Pick<RunJobData, 'facts'>): number {
  return data.facts.conversation;
}

/** 👀/🚀/😕 go on the comment that triggered the run, on the issue for a label, else on the PR. */
export function reactionTargetOf(data: Pick<RunJobData, 'trigger' | 'issue'>): ReactionTarget {
  const t = data.trigger;
  if (t.kind === 'label') return { kind: 'issue', number: data.issue.number };
  // A CI round or a re-run of the verification was started by no comment: the PR.
  if (t.kind === 'ci-failure' || t.kind === 'verify') return { kind: 'issue', number: t.prNumber };
  return { kind: 'comment', id: t.commentId };
}
