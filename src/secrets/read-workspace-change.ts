/**
 * The change as it is about to be committed: each changed path's text at the branch tip (`HEAD`,
 * from git) and in the worktree, both through the one reader. A symbolic link is scanned as its
 * own text, which is what git commits; a deleted path adds nothing and is left out. A changed
 * file the reader will not read (over the cap, a FIFO left by a command) is a refusal, not a
 * file skipped: the gate fails closed.
 */
import { AutofixError } from '../errors.js';
import type { WorktreeRef } from '../git/worktree-git.js';
import { openRepoFiles, type RepoFiles } from '../repo-files/open-repo-files.js';
import { readCommitFiles } from '../repo-files/read-commit-files.js';
import type { ChangedText } from './find-credentials.js';
import { SCAN_MAX_BYTES } from './read-proposed-change.js';

async function worktreeText(repo: RepoFiles, path: string): Promise<string | undefined> {
  const kind = repo.entryKind(path);
  if (kind === undefined) return undefined;
  if (kind === 'symlink') return repo.linkTarget(path);
  const got = await repo.read(path, { maxBytes: SCAN_MAX_BYTES });
  if (got.ok) return got.bytes.toString('utf8');
  throw new AutofixError(
    'SECRET_IN_CHANGE',
    `${got.message}: the change cannot be scanned for credentials, so it is not committed`,
    {
      details: { path, reason: got.reason },
      recoverable: false,
    },
  );
}

export async function readWorkspaceChange(
  ref: WorktreeRef,
  paths: readonly string[],
): Promise<ChangedText[]> {
  const repo = openRepoFiles(ref.worktree);
  const heads = await readCommitFiles(
    { cwd: ref.worktree, gitDir: ref.gitDir, commit: 'HEAD' },
    paths,
    {
      maxBytes: SCAN_MAX_BYTES,
    },
  );
  const files: ChangedText[] = [];
  for (const path of paths) {
    const after = await worktreeText(repo, path);
    if (after === undefined) continue;
    const head = heads.get(path);
    files.push({ path, before: head?.ok ? head.text : undefined, after });
  }
  return files;
}
