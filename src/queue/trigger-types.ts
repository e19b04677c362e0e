/**
 * A trigger as the webhook received it, before anything was asked of GitHub: the first job of
 * every run (queue `trigger`). The webhook only persists it; admission (config, permission, the
 * open PR, the issue lock) happens in the job, with retries, so a GitHub hiccup delays a run
 * instead of losing it.
 */
export const TRIGGER_QUEUE = 'trigger';

export interface TriggerJobData {
  /** `X-GitHub-Delivery` of the delivery that brought it (the first one, for a redelivery). */
  deliveryId: string;
  /**
   * What makes this trigger itself, whatever delivery carried it: `comment:<id>` for a command,
   * `label:<repo id>#<issue>:<label>@<issue updated_at>` for a label. A redelivery, or the same
   * signed body re-sent with a new delivery id, has the same key and starts nothing new.
   */
  triggerKey: string;
  event: 'issues.labeled' | 'issue_comment.created';
  installationId: number;
  repository: {
    name: string;
    full_name: string;
    clone_url: string;
    default_branch: string;
    owner: { login: string };
  };
  /** Unsanitized: sanitized when the run's job is built (webhooks/build-run-job.ts). */
  issue: { number: number; title: string; body: string | null; isPullRequest: boolean };
  sender: string;
  /** `issues.labeled`: the label added. */
  label?: string;
  /** `issue_comment.created`: the comment (starts with `/`). */
  comment?: { id: number; body: string };
  /** Epoch ms the webhook was received. */
  receivedAt: number;
}
