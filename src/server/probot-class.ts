import { Probot, type ProbotOctokit } from 'probot';
import type { Logger } from '../logger.js';

export interface GitHubAppCredentials {
  appId: string;
  privateKey: string;
  webhookSecret?: string;
  /** REST API base: github.com, GHE (`GHE_HOST`) or a local fake. */
  apiUrl: string;
  /** Tests pass ProbotOctokit with retry and throttling off, so the queue's retries show. */
  Octokit?: typeof ProbotOctokit;
}

/** Probot configured once for the web server and the workers of a process. */
export function probotClass(credentials: GitHubAppCredentials, log: Logger): typeof Probot {
  return Probot.defaults({
    appId: credentials.appId,
    privateKey: credentials.privateKey,
    secret: credentials.webhookSecret ?? '',
    baseUrl: credentials.apiUrl,
    log: log as never,
    ...(credentials.Octokit ? { Octokit: credentials.Octokit } : {}),
  });
}
