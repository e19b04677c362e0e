import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gitApplyCheck } from '../../../src/git/apply-check.js';
import { closeWorkspace, openWorkspace } from '../../../src/git/workspace.js';
import { git, makeRemote, removeDir, tempDir } from './helpers.js';

describe('gitApplyCheck', () => {
  let root: string;
  beforeEach(async () => {
    root = await tempDir();
  });
  afterEach(async () => {
    await removeDir(root);
  });

  it('accepts a diff that applies and refuses one that does not with git’s message', async () => {
    const { seed } = await makeRemote(root);
    const good = [
      '--- a/src/app.js',
      '+++ b/src/app.js',
      '@@ -1 +1 @@',
      '-export const answer = 41;',
      '+export const answer = 42;',
      '',
    ].join('\n');
    await expect(gitApplyCheck(seed, good)).resolves.toBeUndefined();
    const bad = good.replace('answer = 41', 'answer = 40');
    await expect(gitApplyCheck(seed, bad)).rejects.toMatchObject({
      code: 'GIT_CONFLICT',
      message: expect.stringContaining('src/app.js') as unknown,
    });
    expect(git(seed, ['status', '--porcelain'])).toBe('');
  });

  it('checks a job worktree through its recorded git directory, not its .git link', async () => {
    const remote = await makeRemote(root);
    const ws = await openWorkspace({
      workdir: join(root, 'work'),
      repo: 'acme/demo',
      remoteUrl: remote.url,
      baseBranch: 'main',
    });
    try {
      await writeFile(join(ws.worktree, '.git'), 'gitdir: /nonexistent\n');
      const diff = '--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-# demo\n+# demo!\n';
      await expect(
        gitApplyCheck(ws.worktree, diff, { gitDir: ws.gitDir }),
      ).resolves.toBeUndefined();
    } finally {
      await closeWorkspace(ws);
    }
  });
});
