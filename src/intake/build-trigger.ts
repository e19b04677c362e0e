/** The trigger job of a delivery, from the payload alone (pure: no API call, no Redis). */
import type { TriggerJobData } from './trigger-types.js';
import type { PayloadRepository } from './build-run-job.js';

interface PayloadIssue {
  number: number;
  title: string;
  body?: string | null;
  updated_at?: string;
  pull_request?: unknown;
}

interface TriggerPayload {
  repository: PayloadRepository & { id?: number };
  issue: PayloadIssue;
  sender: { login: string };
  installation: { id: number };
}

/** The repository as a trigger keeps it (what admission and the run's job need of it). */
export function triggerRepository(repository: PayloadRepository): TriggerJobData['repository'] {
  return {
    name: repository.name,
    full_name: repository.full_name,
    clone_url: repository.clone_url,
    default_branch: repository.default_branch,
    owner: { login: repository.owner.login },
  };
}

function base(
  deliveryId: string,
  payload: TriggerPayload,
  now: number,
): Omit<TriggerJobData, 'triggerKey' | 'event'> {
  const { repository, issue } = payload;
  return {
    deliveryId,
    installationId: payload.installation.id,
    repository: triggerRepository(repository),
    issue: {
      number: issue.number,
      title: issue.title,
      body: issue.body ?? null,
      isPullRequest: Boolean(issue.pull_request),
    },
    sender: payload.sender.login,
    receivedAt: now,
  };
}

/**
 * A label event is told apart from another by the issue's `updated_at`, which GitHub sets when
 * the label is added; without it (a hand-made payload) only the delivery id tells them apart.
 */
export function labelTrigger(
  deliveryId: string,
  payload: TriggerPayload & { label: { name: string } },
  now = Date.now(),
): TriggerJobData {
  const repo = payload.repository.id ?? payload.repository.full_name;
  const moment = payload.issue.updated_at ?? `delivery ${deliveryId}`;
  return {
    ...base(deliveryId, payload, now),
    event: 'issues.labeled',
    triggerKey: `label:${repo}#${payload.issue.number}:${payload.label.name}@${moment}`,
    label: payload.label.name,
  };
}

export function commentTrigger(
  deliveryId: string,
  payload: TriggerPayload & { comment: { id: number; body: string } },
  now = Date.now(),
): TriggerJobData {
  return {
    ...base(deliveryId, payload, now),
    event: 'issue_comment.created',
    triggerKey: `comment:${payload.comment.id}`,
    comment: { id: payload.comment.id, body: payload.comment.body },
  };
}
