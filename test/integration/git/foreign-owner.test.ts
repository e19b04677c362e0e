/**
 * When the worker is root, job worktrees are handed to the sandbox's unprivileged uid (65534)
 * before repository code runs. The bot's own git, still root, must keep working on them: no
 * "dubious ownership" refusal, and the new owner and ctime must not make every file look
 * modified (which would mean re-hashing the whole tree on the next status).
 */
import { chown, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { prepareBranch } from '../../../src/git/branch.js';
import { commitChanges } from '../../../src/git/commit.js';
import { DEFAULT_BOT_IDENTITY } from '../../../src/git/identity.js';
import { runGit } from '../../../src/git/run-git.js';
import { assertCleanWorktree, closeWorkspace, openWorkspace } from '../../../src/git/workspace.js';
import { worktreeGit } from '../../../src/git/worktree-git.js';
import { makeRemote, removeDir, tempDir } from './helpers.js';

const SANDBOX_UID = 65534;

/** `chown -R`, without following symbolic links. */
async function chownTree(dir: string, uid: number): Promise<void> {
  await chown(dir, uid, uid);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await chownTree(path, uid);
    else if (!entry.isSymbolicLink()) await chown(path, uid, uid);
  }
}

describe('a worktree owned by the sandbox uid', () => {
  let root: string;

  beforeEach(async () => {
    root = await tempDir();
  });
  afterEach(async () => {
    await removeDir(root);
  });

  it('still takes status, add and commit from the bot, and no file looks modified', async () => {
    const remote = await makeRemote(root);
    const ws = await openWorkspace({
      workdir: join(root, 'work'),
      repo: 'acme/demo',
      remoteUrl: remote.url,
      baseBranch: 'main',
      jobId: 'job-1',
    });
    try {
      await chownTree(ws.worktree, SANDBOX_UID);

      // Index entries compared without a refresh: stat data alone decides.
      expect((await worktreeGit(ws, ['diff-files', '--name-only'])).stdout).toBe('');
      await assertCleanWorktree(ws, ws.base_commit);
      // Also through the worktree's own `.git` link, as `autofix run` and tests do.
      expect((await runGit(['status', '--porcelain'], { cwd: ws.worktree })).stdout).toBe('');

      await prepareBranch(ws, {
        name: 'autofix/fix/7-answer',
        issue: 7,
        identity: DEFAULT_BOT_IDENTITY,
      });
      await writeFile(join(ws.worktree, 'src/app.js'), 'export const answer = 42;\n');
      const commit = await commitChanges(ws, {
        message: 'fix(app): return the right answer\n\nFixes #7\n',
      });
      expect(commit.files_changed).toEqual(['src/app.js']);
      await assertCleanWorktree(ws, commit.sha);
    } finally {
      await closeWorkspace(ws);
    }
  });
});
