import type { GitHubClient, RepoCoords } from './types.js';

export type RepoRole = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';

/**
 * A user's role on a repository. `role_name` distinguishes maintain and triage; the legacy
 * `permission` field folds them into write and read.
 */
export async function getRepoRole(
  octokit: GitHubClient,
  repo: RepoCoords,
  username: string,
): Promise<RepoRole> {
  const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ ...repo, username });
  const role = (data as { role_name?: string }).role_name ?? data.permission;
  const known: readonly string[] = ['admin', 'maintain', 'write', 'triage', 'read', 'none'];
  return (known.includes(role) ? role : 'none') as RepoRole;
}
