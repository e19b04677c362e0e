/**
 * A trigger as the webhook received it, before anything was asked of GitHub: the first job of
 * every run (queue `trigger`). The webhook only persists it; admission (config, permission, the
 * open PR, the issue lock) happens in the job, with retries, so a GitHub hiccup delays a run
 * instead of losing it.
 */
export const TRIGGER_QUEUE = 'trigger';

/**
 * Events that end in a trigger: a label, a command, CI completing on a bot's PR, or a PR closing
 * (its outcome is recorded).
 */
export type TriggerEvent =
  | 'issues.labeled'
  | 'issue_comment.created'
  | 'check_suite.completed'
  | 'check_run.completed'
  | 'workflow_run.completed'
  | 'check_run.rerequested'
  | 'pull_request.closed';

export interface TriggerJobData {
  /** `X-GitHub-Delivery` of the delivery that brought it (the first one, for a redelivery). */
  deliveryId: string;
  /**
   * What makes this trigger itself, whatever delivery carried it: `comment:<id>` for a command,
   * `label:<repo id>#<issue>:<label>@<issue updated_at>` for a label,
   * `ci:<repo id>#<pr>@<head sha>:<event>:<id>` for a CI completion (the run it may start is keyed
   * by the head alone, so a head gets one repair whichever event saw it first),
   * `closed:<repo id>#<pr>@<closed_at>` for a closed PR. A redelivery, or the same
   * signed body re-sent with a new delivery id, has the same key and starts nothing new.
   */
  triggerKey: string;
  event: TriggerEvent;
  installationId: number;
  repository: {
    name: string;
    full_name: string;
    clone_url: string;
    default_branch: string;
    owner: { login: string };
  };
  /** Unsanitized: sanitized when the run's job is built (intake/build-run-job.ts). */
  issue: { number: number; title: string; body: string | null; isPullRequest: boolean };
  sender: string;
  /** `issues.labeled`: the label added. */
  label?: string;
  /** `issue_comment.created`: the comment (starts with `/`). */
  comment?: { id: number; body: string };
  /**
   * CI completed on a PR's head (`issue` is then the PR): admission reads the checks, and acts only
   * on the bot's PR, on its current head, once every counted check has finished with a failure.
   */
  ci?: { prNumber: number; headSha: string; headBranch: string };
  /**
   * "Re-run" on a check run named like this app's verification (`issue` is then the PR):
   * admission checks it is this app's, on a PR this app opened, asked by someone who may write.
   */
  rerun?: { checkRunId: number; appSlug: string; prNumber: number; headSha: string };
  /**
   * `pull_request.closed` of a PR that may be this app's (`issue` is then the PR): admission
   * checks it is (author, branch prefix, not a fork), finds its run and records the outcome.
   */
  closed?: PullClosed;
  /** Epoch ms the webhook was received. */
  receivedAt: number;
}

/** A closed pull request as its webhook described it. */
export interface PullClosed {
  prNumber: number;
  merged: boolean;
  /** The commit the merge put on the base branch; null when not merged. */
  mergeSha: string | null;
  /** When it was merged or closed (epoch ms). */
  at: number;
  author: string;
  head: { ref: string; repo: string | null };
}
