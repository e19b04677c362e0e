/**
 * The app's own bot login (`<slug>[bot]`), to recognise pull requests it opened. Asked once
 * (`GET /app`, authenticated as the app) and kept for the life of the process.
 */
import type { GitHubClient } from '../github/types.js';

export interface AppIdentity {
  /** The app's slug: its check runs' `app.slug`. */
  slug(): Promise<string>;
  /** `<slug>[bot]`: the author of its comments, commits and PRs. */
  botLogin(): Promise<string>;
}

export function createAppIdentity(appOctokit: () => Promise<GitHubClient>): AppIdentity {
  let slug: Promise<string> | undefined;
  const ask = (): Promise<string> => {
    slug ??= appOctokit()
      .then((octokit) => octokit.rest.apps.getAuthenticated())
      .then(({ data }) => data?.slug ?? 'autofix');
    slug.catch(() => (slug = undefined));
    return slug;
  };
  return { slug: ask, botLogin: () => ask().then((s) => `${s}[bot]`) };
}
