/**
 * Installation-authenticated clients for workers. Job data never holds a token: each processor
 * asks for a client by installation id, and Probot mints (and caches for ~59 min) the token.
 */
import type { Probot } from 'probot';
import type { GitHubClient } from './types.js';

export interface InstallationClient {
  octokit: GitHubClient;
  /** A token for git over HTTPS (`http.extraHeader`); registered with the redactor. */
  getInstallationToken: () => Promise<string>;
}

export type InstallationAuth = (installationId: number) => Promise<InstallationClient>;

export function createInstallationAuth(
  probot: Pick<Probot, 'auth'>,
  onToken: (token: string) => void = () => undefined,
): InstallationAuth {
  return async (installationId) => {
    const octokit = await probot.auth(installationId);
    return {
      octokit,
      getInstallationToken: async () => {
        const auth = (await octokit.auth({ type: 'installation' })) as { token: string };
        onToken(auth.token);
        return auth.token;
      },
    };
  };
}
