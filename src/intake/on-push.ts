/**
 * `push` to a repository's default branch (issue #36): a commit that says git's
 * `This reverts commit <sha>` of the commit an Autofix PR was merged as marks that PR reverted
 * (revert-of.ts). From the payload and the outcome store only; every other push is left.
 */
import type { Context } from 'probot';
import { recordReverts } from './record-revert.js';
import { revertedCommitsOf } from './revert-of.js';
import type { WebhookDeps } from './webhook-deps.js';

const EVENT = 'push';

export function onPush(deps: WebhookDeps) {
  return async (context: Context<'push'>): Promise<void> => {
    const { payload } = context;
    const count = (result: string): void => deps.metrics?.deliveries.inc({ event: EVENT, result });
    const { repository } = payload;
    const toDefault = payload.ref === `refs/heads/${repository.default_branch}`;
    const shas = toDefault ? revertedCommitsOf(payload.commits.map((c) => c.message)) : [];
    if (shas.length === 0 || !deps.outcomes) return count('ignored');
    const at = Date.parse(payload.head_commit?.timestamp ?? '') || Date.now();
    const outcomes = deps.outcomes;
    const reverted = await recordReverts(
      deps,
      context.log,
      shas.map((sha) => outcomes.revertCommit(repository.full_name, sha, at)),
      `push ${payload.after}`,
    );
    count(reverted > 0 ? 'reverted' : 'ignored');
  };
}
