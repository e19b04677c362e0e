import { Probot, ProbotOctokit } from 'probot';
import type { Logger } from '../../logger.js';

export interface GitHubAppCredentials {
  appId: string;
  privateKey: string;
  webhookSecret?: string;
  /** REST API base: github.com, GHE (`GHE_HOST`) or a local fake. */
  apiUrl: string;
  /** Tests pass ProbotOctokit with retry and throttling off, so the queue's retries show. */
  Octokit?: typeof ProbotOctokit;
}

interface AuthRequest {
  endpoint: { DEFAULTS: { baseUrl: string } };
  defaults(options: { baseUrl: string }): AuthRequest;
}

/**
 * Probot hands the app-auth strategy a `request` of its own, without `baseUrl`. Tokens minted
 * inside a request hook use the client's base URL, but a direct `octokit.auth({ type:
 * 'installation' })` (a worker's git token, before any API call warmed the cache) goes to
 * api.github.com. Give that `request` the API base too.
 */
function withAuthBaseUrl(Octokit: typeof ProbotOctokit, apiUrl: string): typeof ProbotOctokit {
  return Octokit.defaults((options: { auth?: { request?: AuthRequest } }) => {
    const request = options.auth?.request;
    if (!request || request.endpoint.DEFAULTS.baseUrl === apiUrl) return options;
    return {
      ...options,
      auth: { ...options.auth, request: request.defaults({ baseUrl: apiUrl }) },
    };
  });
}

/** Probot configured once for the web server and the workers of a process. */
export function probotClass(credentials: GitHubAppCredentials, log: Logger): typeof Probot {
  return Probot.defaults({
    appId: credentials.appId,
    privateKey: credentials.privateKey,
    secret: credentials.webhookSecret ?? '',
    baseUrl: credentials.apiUrl,
    log: log as never,
    Octokit: withAuthBaseUrl(credentials.Octokit ?? ProbotOctokit, credentials.apiUrl),
  });
}
