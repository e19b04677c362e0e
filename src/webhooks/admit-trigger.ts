/**
 * The checks every trigger passes after it matched the label or command: the sender may write to
 * the repository, and the repository config is valid (otherwise one comment names the bad keys).
 */
import type { RepoConfig } from '../config/repo-config.js';
import type { GitHubClient, RepoCoords } from '../github/types.js';
import type { Logger } from '../logger.js';
import { CONFIG_PATH, type LoadedConfig } from './repo-config-loader.js';
import { renderConfigErrorReply } from './render-replies.js';
import { RetryLaterError } from './retry-later.js';
import type { WebhookDeps } from './webhook-deps.js';

export interface TriggerAttempt {
  octokit: GitHubClient;
  log: Logger;
  event: string;
  repo: RepoCoords;
  defaultBranch: string;
  /** Where a reply goes. */
  issueNumber: number;
  sender: string;
  loaded: LoadedConfig;
}

export async function admitTrigger(
  deps: WebhookDeps,
  attempt: TriggerAttempt,
): Promise<RepoConfig | undefined> {
  const { octokit, log, repo, loaded } = attempt;
  const count = (result: string): void =>
    deps.metrics?.deliveries.inc({ event: attempt.event, result });
  if (!(await deps.permissions.allows(octokit, repo, attempt.sender, log))) {
    log.info({ sender: attempt.sender }, 'sender lacks write permission: no run');
    count('unauthorized');
    return undefined;
  }
  if (!loaded.ok) {
    count('config-invalid');
    log.warn({ err: loaded.error }, `${CONFIG_PATH} is invalid: no run`);
    await octokit.rest.issues
      .createComment({
        ...repo,
        issue_number: attempt.issueNumber,
        body: renderConfigErrorReply(
          loaded.error,
          CONFIG_PATH,
          attempt.defaultBranch,
          loaded.command,
        ),
      })
      .catch((err: unknown) => log.warn({ err }, 'could not post the config error'));
    return undefined;
  }
  return loaded.config;
}

/** Loads the config, turning a GitHub outage into a 503 so the delivery can be retried. */
export async function loadConfigOr503(
  deps: WebhookDeps,
  octokit: GitHubClient,
  repo: RepoCoords,
  defaultBranch: string,
): Promise<LoadedConfig> {
  try {
    return await deps.configs.load(octokit, repo, defaultBranch);
  } catch (err) {
    throw new RetryLaterError(`could not read ${CONFIG_PATH}: ${(err as Error).message}`, {
      cause: err,
    });
  }
}
