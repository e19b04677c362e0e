/** A revert seen in a webhook (revert-of.ts) recorded against the PR it undoes, once. */
import type { Logger } from '../logger.js';
import type { PrOutcomeRecord } from '../runs/pr-outcomes.js';
import type { WebhookDeps } from './webhook-deps.js';

/** Counts and logs the reverts that were new; the number of them. */
export async function recordReverts(
  deps: Pick<WebhookDeps, 'metrics'>,
  log: Logger,
  reverts: readonly Promise<PrOutcomeRecord | undefined>[],
  how: string,
): Promise<number> {
  const done = (await Promise.all(reverts)).filter((r): r is PrOutcomeRecord => !!r);
  for (const r of done) {
    deps.metrics?.prOutcomes.inc({ outcome: 'reverted' });
    log.info({ runId: r.runId, repo: r.repo, pr: r.pr, how }, 'pull request reverted');
  }
  return done.length;
}
