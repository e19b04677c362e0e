/**
 * `issue_comment.created` starting with the command (`/autofix`): on an issue, a run with the rest
 * of the comment as extra instructions; on a PR this app opened, a feedback run on its branch.
 */
import type { Context } from 'probot';
import { sanitizeUntrustedText } from '../pipeline/untrusted-text.js';
import type { RunTrigger } from '../queue/types.js';
import { admitTrigger, loadConfigOr503 } from './admit-trigger.js';
import { buildRunJob } from './build-run-job.js';
import { parseCommand } from './parse-command.js';
import { resolveBotPullRequest } from './resolve-bot-pull-request.js';
import { startRun } from './start-run.js';
import type { WebhookDeps } from './webhook-deps.js';

const EVENT = 'issue_comment.created';

export function onIssueComment(deps: WebhookDeps) {
  return async (context: Context<'issue_comment.created'>): Promise<void> => {
    const { payload, octokit } = context;
    const count = (result: string): void => deps.metrics?.deliveries.inc({ event: EVENT, result });
    if (payload.sender.type === 'Bot') return count('bot');
    const body = payload.comment.body ?? '';
    // Most comments are conversation: leave them before any API call.
    if (!body.trimStart().startsWith('/')) return count('ignored');
    const installationId = payload.installation?.id;
    if (!installationId) return count('ignored');
    const repo = { owner: payload.repository.owner.login, repo: payload.repository.name };
    const defaultBranch = payload.repository.default_branch;
    const loaded = await loadConfigOr503(deps, octokit, repo, defaultBranch);
    const instructions = parseCommand(body, loaded.ok ? loaded.config.command : loaded.command);
    if (instructions === undefined) return count('ignored');
    const config = await admitTrigger(deps, {
      octokit,
      log: context.log,
      event: EVENT,
      repo,
      defaultBranch,
      issueNumber: payload.issue.number,
      sender: payload.sender.login,
      loaded,
    });
    if (!config) return;

    let trigger: RunTrigger;
    let issue: { number: number; title: string; body?: string | null } = payload.issue;
    if (payload.issue.pull_request) {
      const pull = await resolveBotPullRequest(
        octokit,
        repo,
        payload.issue.number,
        config.branch_prefix,
        deps.identity,
      );
      if (!pull) {
        context.log.info(
          { pr: payload.issue.number },
          'not a pull request this app opened: ignored',
        );
        return count('ignored');
      }
      issue = pull.issue;
      if (pull.untrustedSkipped > 0) {
        context.log.info(
          { pr: payload.issue.number, skipped: pull.untrustedSkipped },
          'review comments by users the repository does not trust were left out',
        );
      }
      trigger = {
        kind: 'pr-feedback',
        commentId: payload.comment.id,
        prNumber: payload.issue.number,
        branch: pull.branch,
        feedback: sanitizeUntrustedText(instructions),
        review: pull.review,
      };
    } else {
      trigger = {
        kind: 'issue-comment',
        commentId: payload.comment.id,
        instructions: sanitizeUntrustedText(instructions),
      };
    }
    const job = buildRunJob({
      deliveryId: context.id,
      installationId,
      repository: payload.repository,
      issue,
      trigger,
      sender: payload.sender.login,
      config,
    });
    await startRun(deps, octokit, context.log, EVENT, job);
  };
}
