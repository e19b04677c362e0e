/**
 * The contract between the queue layer (this folder) and the stage logic (src/pipeline).
 *
 * A run is a chain of BullMQ jobs, one per stage of its route (`ROUTES` in contracts.ts: triage →
 * plan → reproduce → code → pr for a fix, verify alone for a re-run), one queue per stage. Each job
 * carries `RunJobData`: plain JSON (it lives in Redis and may be processed on another machine),
 * never a token. A stage processor receives that data plus a `StageContext` (an installation
 * client minted for this job, a logger, an abort signal, the status-comment updater) and answers
 * a `StageOutcome`. The queue layer then merges the output into `outputs[stage]` and enqueues the
 * next stage with job id `${runId}-${nextStage}`, so a retried stage never enqueues twice.
 *
 * Errors are thrown: an `AutofixError` with `recoverable: false` is permanent (BullMQ
 * `UnrecoverableError`, no retry); anything transient (GitHub 5xx, rate limits, network, LLM
 * 429/5xx) is retried with exponential backoff. The last failure calls `RunFailedHook`, then the
 * queue layer comments on the issue, labels it `automation-failed` and reacts 😕.
 */
import type { RepoConfig } from '../config/repo-config.js';
import type {
  BranchFacts,
  RunFailure,
  RunPins,
  StageAnswer,
  StageCheckpoint,
  StageName,
  StageOutputMap,
  StageOutputs,
} from '../contracts.js';
import type { GitHubClient, StatusFacts, StatusPatch } from '../github/types.js';
import type { Logger } from '../logger.js';
import type { ReviewNote } from '../github/review-notes.js';
import type { Run, RunUsage } from './run-record.js';
import type { SpendGuard } from '../llm/spend-guard.js';
import type { CallJournal } from '../llm/call-journal.js';

export {
  ROUTES,
  STAGES,
  type RouteName,
  type RunFailure,
  type RunPins,
  type StageCheckpoint,
  type StageName,
  type StageOutputMap,
  type StageOutputs,
} from '../contracts.js';

/**
 * What started the run. Text fields are sanitized (docs/SECURITY.md, rule 3) before they get here.
 */
export type RunTrigger =
  /** The trigger label (repo config `trigger_label`) was added to the issue. */
  | { kind: 'label'; label: string }
  /** `/autofix [instructions]` commented on the issue. */
  | {
      kind: 'issue-comment';
      commentId: number;
      instructions: string;
      /** `/autofix fresh …`: start over from the base, replacing an earlier run's branch and PR. */
      fresh?: boolean;
      /** The open PR's branch a fresh run replaces (its new commit keeps the same PR). */
      replaceBranch?: string;
    }
  /** `/autofix <feedback>` commented on a PR this app opened: a new commit on `branch`. */
  | {
      kind: 'pr-feedback';
      commentId: number;
      prNumber: number;
      branch: string;
      feedback: string;
      /** The review's line comments and verdicts by trusted users when the command was given. */
      review?: ReviewNote[];
    }
  /** The repository's CI failed on the head of a PR this app opened: one repair commit on `branch`. */
  | {
      kind: 'ci-failure';
      prNumber: number;
      branch: string;
      /** The head the checks failed on. */
      headSha: string;
      /** This round (1-based) and the most the repository allows (`ci_fix_attempts`). */
      round: number;
      attempts: number;
      /** `failureSignature` of the failures: a next round that fails alike stops the follow-up. */
      signature: string;
      /** The failing checks, their logs cropped and sanitized. */
      failures: CiFailureNote[];
    }
  /** Re-run asked from the Checks UI on this app's verification of a PR's head: verify it again. */
  | { kind: 'verify'; prNumber: number; branch: string; headSha: string; checkRunId: number };

/** A failed check as the fixer sees it (text sanitized at admission). */
export interface CiFailureNote {
  name: string;
  conclusion: string;
  url: string;
  /** The step that failed, when the log says. */
  step?: string;
  excerpt: string;
  source: 'log' | 'check-output';
}

export interface RunRepository {
  owner: string;
  name: string;
  /** `owner/name`. */
  fullName: string;
  /** From the payload's `repository.clone_url`: GitHub, GHE or a local fake alike. */
  cloneUrl: string;
  defaultBranch: string;
}

export interface RunIssue {
  number: number;
  title: string;
  /** Sanitized issue body. */
  body: string;
}

/** Facts resolved once at intake (intake/build-run-job.ts); every stage reads them from here. */
export interface RunFactsData extends BranchFacts {
  /** Where the run talks: the PR for a feedback run, else the issue. */
  conversation: number;
}

export interface RunJobData {
  /** Deterministic from repository, issue and trigger key: a redelivery maps to the same run. */
  runId: string;
  /** `X-GitHub-Delivery` of the webhook that started the run. */
  deliveryId: string;
  /** The trigger's identity: a redelivery or a re-sent body has the same (intake/trigger-types.ts). */
  triggerKey: string;
  installationId: number;
  repository: RunRepository;
  /**
   * The issue the run fixes. For `pr-feedback` it is the issue the PR fixes (from the branch
   * name `<prefix><type>/<issue>-<slug>`), or the PR itself when that cannot be told.
   */
  issue: RunIssue;
  trigger: RunTrigger;
  facts: RunFactsData;
  /** Login of the person who triggered the run (asked to review the PR). */
  sender: string;
  /** `.github/autofix.yml` from the default branch, validated when the trigger arrived. */
  config: RepoConfig;
  /** The run's status comment, once created (on the issue, or on the PR for feedback runs). */
  statusCommentId?: number;
  /** What the status comment shows; carried along so any worker can re-render it. */
  status: StatusFacts;
  outputs: StageOutputs;
  /** Facts the first stages fixed for the rest of the run. */
  pins?: RunPins;
  /**
   * What the current stage saved before a side effect it cannot take back (the code stage, before
   * its push): a retry of the same stage reads it to go on from that side effect. Dropped when the
   * stage completes.
   */
  checkpoint?: StageOutputs;
  /** Epoch ms when the webhook was accepted (overhead metrics). */
  acceptedAt: number;
  /** A maintainer's words for the planner (`/autofix plan …`), sanitized, oldest first. */
  planNotes?: string[];
}

/** Updates the run's status comment. Best effort: a failed edit is logged, never thrown. */
export interface StatusUpdater {
  update(patch: StatusPatch): Promise<void>;
  current(): StatusFacts;
}

export interface StageContext {
  stage: StageName;
  /** 1 on the first attempt. */
  attempt: number;
  /** Authenticated as the installation; minted for this job. */
  octokit: GitHubClient;
  /** Installation token for git over HTTPS; never store it in job data or logs. */
  getInstallationToken: () => Promise<string>;
  log: Logger;
  /** Aborted on shutdown: stop, clean up, throw. The job goes back to the queue untouched. */
  signal: AbortSignal;
  status: StatusUpdater;
  /** This stage's checkpoint: what an earlier attempt saved, and how to save one. */
  checkpoint: StageCheckpoint;
  /** Records what the stage's LLM calls used so far (the run record's stage usage); may repeat. */
  recordUsage: (usage: RunUsage, models: readonly string[]) => void;
  /** The run's money check and answer journal for this attempt's LLM client, when the app has them. */
  llmGuards?: { spendGuard: SpendGuard; journal: CallJournal };
}

/** A stage's answer in the app: what either runner takes, plus what the status comment shows. */
export type StageOutcome<T = unknown> = StageAnswer<T> & { status?: StatusPatch };

export type StageProcessor<S extends StageName> = (
  job: Run,
  ctx: StageContext,
) => Promise<StageOutcome<StageOutputMap[S]>>;

export type StageProcessors = { [S in StageName]: StageProcessor<S> };

/** Called once when a run fails for good, before the failure comment (e.g. rollback). */
export type RunFailedHook = (
  job: RunJobData,
  failure: RunFailure,
  ctx: Pick<StageContext, 'octokit' | 'getInstallationToken' | 'log'>,
) => Promise<void>;
