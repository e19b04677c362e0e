import type { GitHubClient, RepoCoords } from './types.js';

/** Text of a file at a ref, or undefined when the file does not exist there. */
export async function readRepoFile(
  octokit: GitHubClient,
  repo: RepoCoords,
  path: string,
  ref: string,
): Promise<string | undefined> {
  try {
    const { data } = await octokit.rest.repos.getContent({ ...repo, path, ref });
    if (Array.isArray(data) || data.type !== 'file' || !('content' in data)) return undefined;
    return Buffer.from(data.content, 'base64').toString('utf8');
  } catch (err) {
    if ((err as { status?: unknown }).status === 404) return undefined;
    throw err;
  }
}
