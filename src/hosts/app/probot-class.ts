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

/** What a webhook handler finds in `context.octokit`. */
export const NO_CLIENT_IN_INTAKE =
  'the webhook server gives handlers no GitHub client: intake asks GitHub nothing (AGENTS.md); ' +
  "call GitHub from the trigger's admission (intake/admit-trigger.ts)";

/**
 * Probot builds an installation Octokit for every delivery (`context.octokit`): plugins, auth,
 * throttling, about a tenth of what answering a delivery cost (bench:webhooks, issue #38). Intake
 * asks GitHub nothing, so the webhook server's Octokit answers Probot's `event-octokit` request
 * with one shared client that refuses every request. Every other client is unchanged.
 */
function withoutEventClients(Octokit: typeof ProbotOctokit): typeof ProbotOctokit {
  let refusing: Promise<unknown> | undefined;
  return class extends Octokit {
    constructor(...args: ConstructorParameters<typeof ProbotOctokit>) {
      super(...args);
      const auth = this.auth;
      this.auth = (...options: unknown[]): Promise<unknown> => {
        if ((options[0] as { type?: string } | undefined)?.type !== 'event-octokit')
          return auth(...options);
        refusing ??= Promise.resolve(refusingClient(this.constructor as typeof ProbotOctokit));
        return refusing;
      };
    }
  };
}

function refusingClient(Octokit: typeof ProbotOctokit): InstanceType<typeof ProbotOctokit> {
  const client = new Octokit();
  client.hook.wrap('request', () => Promise.reject(new Error(NO_CLIENT_IN_INTAKE)));
  return client;
}

/**
 * Probot configured once for the web server and the workers of a process. `webhooksOnly`: the
 * webhook server's, whose handlers get no GitHub client (`withoutEventClients`).
 */
export function probotClass(
  credentials: GitHubAppCredentials,
  log: Logger,
  options: { webhooksOnly?: boolean } = {},
): typeof Probot {
  const Octokit = withAuthBaseUrl(credentials.Octokit ?? ProbotOctokit, credentials.apiUrl);
  return Probot.defaults({
    appId: credentials.appId,
    privateKey: credentials.privateKey,
    secret: credentials.webhookSecret ?? '',
    baseUrl: credentials.apiUrl,
    log: log as never,
    Octokit: options.webhooksOnly ? withoutEventClients(Octokit) : Octokit,
  });
}
