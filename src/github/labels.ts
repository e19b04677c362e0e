import type { GitHubClient, RepoCoords } from './types.js';

export interface LabelSpec {
  name: string;
  color: string;
  description: string;
}

export const FAILED_LABEL: LabelSpec = {
  name: 'automation-failed',
  color: 'b60205',
  description: 'Autofix could not complete a run on this issue',
};

function statusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

/**
 * Creates the label when the repository lacks it (GitHub would create an uncoloured one on its own
 * when adding it). A 422 means another run created it meanwhile.
 */
export async function ensureLabel(
  octokit: GitHubClient,
  repo: RepoCoords,
  label: LabelSpec,
): Promise<void> {
  try {
    await octokit.rest.issues.getLabel({ ...repo, name: label.name });
    return;
  } catch (err) {
    if (statusOf(err) !== 404) throw err;
  }
  try {
    await octokit.rest.issues.createLabel({ ...repo, ...label });
  } catch (err) {
    if (statusOf(err) !== 422) throw err;
  }
}

export async function addLabels(
  octokit: GitHubClient,
  repo: RepoCoords,
  issueNumber: number,
  labels: string[],
): Promise<void> {
  if (labels.length === 0) return;
  await octokit.rest.issues.addLabels({ ...repo, issue_number: issueNumber, labels });
}
