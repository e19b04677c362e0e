/**
 * The code stage's gate: the validated change in the job's worktree, scanned before it is
 * committed and kept on the remote (`git/keep-commit.ts`), so a refusal leaves nothing anywhere.
 */
import type { Redactor } from '../artifacts/redact.js';
import type { WorktreeRef } from '../git/worktree-git.js';
import { readWorkspaceChange } from './read-workspace-change.js';
import { refuseCredentials } from './refuse-credentials.js';

export async function refuseWorkspaceCredentials(
  ref: WorktreeRef,
  paths: readonly string[],
  redact: Redactor,
): Promise<void> {
  await refuseCredentials(await readWorkspaceChange(ref, paths), redact);
}
