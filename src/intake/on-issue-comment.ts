/**
 * `issue_comment.created` that may be the command (`/autofix …`): on an issue, a run with the rest
 * of the comment as instructions; on a PR this app opened, a feedback run on its branch. The
 * webhook only persists the trigger; admission happens in its job (admit-trigger.ts).
 */
import type { Context } from 'probot';
import { acceptTrigger } from './accept-trigger.js';
import { commentTrigger } from './build-trigger.js';
import { parseCommand } from './parse-command.js';
import { triggersOf } from './repo-config-loader.js';
import type { WebhookDeps } from './webhook-deps.js';

const EVENT = 'issue_comment.created';

export function onIssueComment(deps: WebhookDeps) {
  return async (context: Context<'issue_comment.created'>): Promise<void> => {
    const { payload } = context;
    const count = (result: string): void => deps.metrics?.deliveries.inc({ event: EVENT, result });
    if (payload.sender.type === 'Bot') return count('bot');
    const body = payload.comment.body ?? '';
    // Most comments are conversation: leave them before anything is stored.
    if (!body.trimStart().startsWith('/')) return count('ignored');
    const installation = payload.installation;
    if (!installation?.id) return count('ignored');
    const repo = { owner: payload.repository.owner.login, repo: payload.repository.name };
    const known = deps.configs.peek(repo, payload.repository.default_branch);
    if (known && parseCommand(body, triggersOf(known).command) === undefined) {
      return count('ignored');
    }
    await acceptTrigger(
      deps,
      context.log,
      commentTrigger(context.id, {
        ...payload,
        installation,
        comment: { id: payload.comment.id, body },
      }),
    );
  };
}
