/**
 * The app's own bot login (`<slug>[bot]`), to recognise pull requests it opened. Asked once
 * (`GET /app`, authenticated as the app) and kept for the life of the process.
 */
import type { GitHubClient } from '../github/types.js';

export interface AppIdentity {
  botLogin(): Promise<string>;
}

export function createAppIdentity(appOctokit: () => Promise<GitHubClient>): AppIdentity {
  let login: Promise<string> | undefined;
  return {
    botLogin() {
      login ??= appOctokit()
        .then((octokit) => octokit.rest.apps.getAuthenticated())
        .then(({ data }) => `${data?.slug ?? 'autofix'}[bot]`);
      login.catch(() => (login = undefined));
      return login;
    },
  };
}
