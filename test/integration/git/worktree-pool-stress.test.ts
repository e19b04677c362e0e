import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { prepareBranch } from '../../../src/git/branch.js';
import { DEFAULT_BOT_IDENTITY } from '../../../src/git/identity.js';
import { closeWorkspace, openWorkspace } from '../../../src/git/workspace.js';
import { git, makeRemote, removeDir, tempDir, type Remote } from './helpers.js';
import { underLoad } from '../../helpers/deadlines.js';

/**
 * Issue 13: `git worktree repair` (run when a worktree is parked or claimed) rewrites the `.git`
 * file of every registered worktree. A job folder removed outside the mirror lock while that
 * runs fails with ENOTEMPTY and leaves its folder, its registered worktree and its local branch
 * behind. Four jobs at a time, with and without recycling, must leave nothing behind.
 */
describe('the worktree pool under concurrent jobs', () => {
  let root: string;
  let remote: Remote;
  let workdir: string;

  beforeEach(async () => {
    root = await tempDir();
    remote = await makeRemote(root, {
      'README.md': '# demo\n',
      ...Object.fromEntries(
        Array.from({ length: 60 }, (_, i) => [`src/m${i}/file${i}.js`, `export const v = ${i};\n`]),
      ),
    });
    workdir = join(root, 'work');
  });
  afterEach(async () => {
    await removeDir(root);
  });

  it.each([
    [2, 25],
    [0, 8],
  ])(
    'leaves no job folder, registered worktree or local branch (recycling %i, 4 × %i jobs)',
    async (recycleWorktrees, rounds) => {
      const errors: unknown[] = [];
      const job = async (worker: number, round: number): Promise<void> => {
        const ws = await openWorkspace({
          workdir,
          repo: 'acme/demo',
          remoteUrl: remote.url,
          baseBranch: 'main',
          jobId: `w${worker}-r${round}`,
          recycleWorktrees,
        });
        try {
          await prepareBranch(ws, {
            name: `autofix/fix/${worker}-${round}-stress`,
            issue: worker * 100 + round,
            identity: DEFAULT_BOT_IDENTITY,
          });
          await writeFile(join(ws.worktree, 'scratch.txt'), `${worker}/${round}\n`);
        } finally {
          await closeWorkspace(ws).catch((err: unknown) => errors.push(err));
        }
      };
      await Promise.all(
        [0, 1, 2, 3].map(async (worker) => {
          for (let round = 0; round < rounds; round++) await job(worker, round);
        }),
      );
      expect(errors).toEqual([]);
      expect(await readdir(join(workdir, 'jobs'))).toEqual([]);
      const mirror = join(workdir, 'mirrors/acme/demo.git');
      expect(git(mirror, ['branch', '--list'])).toBe('');
      const registered = git(mirror, ['worktree', 'list', '--porcelain'])
        .split('\n')
        .filter((l) => l.startsWith('worktree '))
        .map((l) => l.slice('worktree '.length))
        .filter((p) => p !== mirror);
      // Only parked worktrees stay registered, each in its pool slot.
      expect(registered.length).toBeLessThanOrEqual(recycleWorktrees);
      for (const path of registered) expect(path).toContain(join(workdir, 'pool'));
    },
    underLoad(120_000),
  );
});
