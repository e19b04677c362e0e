/**
 * A repository and a user as GitHub's REST answers carry them (the "repository" and
 * "simple-user" shapes): what `GET /repos/{o}/{r}` answers and what a pull request's `head.repo`
 * and `base.repo` hold.
 */
import { REPOSITORY_ID, type FakeStore } from './store.js';

export function userJson(login: string): Record<string, unknown> {
  return { login, type: login.endsWith('[bot]') ? 'Bot' : 'User' };
}

/** `owner/name` as GitHub answers it: a fork the store knows has its own id and `fork: true`. */
export function repositoryJson(store: FakeStore, fullName: string): Record<string, unknown> {
  const [owner = '', name = ''] = fullName.split('/');
  const forkId = store.forks.get(fullName.toLowerCase());
  return {
    id: forkId ?? REPOSITORY_ID,
    node_id: `R_fake${forkId ?? REPOSITORY_ID}`,
    name,
    full_name: fullName,
    owner: userJson(owner),
    private: false,
    fork: forkId !== undefined,
    default_branch: 'main',
    html_url: `${store.base}/${fullName}`,
    url: `${store.base}/api/v3/repos/${fullName}`,
    clone_url: `${store.base}/${fullName}.git`,
  };
}
