/** Wires the event handlers into Probot. */
import type { Probot } from 'probot';
import { onCheckRerequested } from './on-check-rerequested.js';
import { onCiCompleted } from './on-ci-completed.js';
import { onIssueComment } from './on-issue-comment.js';
import { onIssueLabeled } from './on-issue-labeled.js';
import { LOST_EVENTS, onInstallationLost } from './on-installation-lost.js';
import { onPullClosed } from './on-pull-closed.js';
import { onPush } from './on-push.js';
import type { WebhookDeps } from './webhook-deps.js';

/**
 * @octokit/webhooks answers a bad signature with 400; 401 says what happened (an unauthenticated
 * sender). Error handlers run before the middleware reads `status`, so setting it here is enough.
 */
function answerBadSignatureWith401(error: Error): void {
  const errors = error instanceof AggregateError ? (error.errors as unknown[]) : [error];
  for (const e of errors) {
    if (e instanceof Error && /signature does not match/i.test(e.message)) {
      (e as Error & { status?: number }).status = 401;
    }
  }
}

export function registerWebhooks(app: Probot, deps: WebhookDeps): void {
  app.on('issues.labeled', onIssueLabeled(deps));
  app.on('issue_comment.created', onIssueComment(deps));
  app.on('check_run.rerequested', onCheckRerequested(deps));
  app.on(
    ['check_suite.completed', 'check_run.completed', 'workflow_run.completed'],
    onCiCompleted(deps),
  );
  app.on([...LOST_EVENTS], onInstallationLost(deps));
  app.on('pull_request.closed', onPullClosed(deps));
  app.on('push', onPush(deps));
  app.onError(answerBadSignatureWith401);
}
