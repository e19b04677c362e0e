/**
 * `autofix run` recycles worktrees (issue #15): two consecutive runs on the same repository go
 * through the options run-local.ts builds (`localWorkspaceOptions`), the second gets the first's
 * scrubbed worktree, at the user's new HEAD, with nothing the first job left — and a first job
 * that failed, at any point, leaves nothing that breaks the second.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { prepareBranch } from '../../../src/git/branch.js';
import { commitChanges } from '../../../src/git/commit.js';
import { DEFAULT_BOT_IDENTITY } from '../../../src/git/identity.js';
import {
  LOCAL_RECYCLED_WORKTREES,
  localRepoKey,
  localWorkspaceOptions,
} from '../../../src/git/local-workspace.js';
import { pushBranch } from './helpers.js';
import { rollbackWorkspace } from '../../../src/git/rollback.js';
import { closeWorkspace, openWorkspace, type Workspace } from '../../../src/git/workspace.js';
import type { Logger } from '../../../src/logger.js';
import { createRepo, executable, type TestRepo } from '../../helpers/repo-builder.js';
import { git, removeDir, tempDir } from './helpers.js';

const FILES: Record<string, string> = {
  '.gitignore': 'node_modules/\ndist/\n.env\n',
  'README.md': '# demo\n',
  'src/app.js': 'export const answer = 41;\n',
  'src/old.js': 'export const old = true;\n',
  'bin/run.sh': '#!/bin/sh\necho run\n',
};

async function write(root: string, path: string, content: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), content);
}

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  const log = {
    warnings,
    info: () => undefined,
    debug: () => undefined,
    error: () => undefined,
    warn: (_o: unknown, msg?: string) => warnings.push(msg ?? ''),
    child: () => log,
  };
  return log as unknown as Logger & { warnings: string[] };
}

describe('autofix run recycles worktrees (localWorkspaceOptions, as run-local.ts)', () => {
  let root: string;
  let userRepo: TestRepo;
  let user: string;
  let workdir: string;

  beforeEach(async () => {
    root = await tempDir('autofix-local-ws-');
    // The user's repository: a normal checkout with `main` checked out, as `autofix run` wants.
    const files = { ...FILES, 'bin/run.sh': executable(FILES['bin/run.sh']!) };
    userRepo = createRepo({ root, name: 'project', files });
    user = userRepo.dir;
    workdir = join(root, 'autofix-workdir');
  });
  afterEach(async () => {
    await removeDir(root);
  });

  const options = (jobId: string, baseBranch = 'main', logger?: Logger) =>
    localWorkspaceOptions({
      workdir,
      repoPath: user,
      baseBranch,
      branchPrefix: 'autofix/',
      jobId,
      ...(logger ? { logger } : {}),
    });
  const pool = () => readdir(join(workdir, 'pool', localRepoKey(user))).catch(() => []);
  const registered = (ws: Workspace) =>
    git(ws.mirrorDir, ['worktree', 'list', '--porcelain'])
      .split('\n')
      .filter((l) => l.startsWith('worktree ')).length - 1;

  /** The worktree is exactly the user's `head`: no change, no untracked or ignored file. */
  async function expectPristine(ws: Workspace, head: string): Promise<void> {
    expect(git(ws.worktree, ['rev-parse', 'HEAD'])).toBe(head);
    expect(git(ws.worktree, ['status', '--porcelain', '--ignored', '--untracked-files=all'])).toBe(
      '',
    );
    for (const [path, content] of Object.entries(FILES)) {
      expect(await readFile(join(ws.worktree, path), 'utf8')).toBe(content);
    }
    expect(git(ws.worktree, ['ls-files', '-s', 'bin/run.sh']).split(' ')[0]).toBe('100755');
    expect(git(ws.mirrorDir, ['branch', '--list'])).toBe(''); // no job's local branch left
  }

  /** What a job typically leaves: a commit on its branch, edits, untracked and ignored files. */
  async function messUp(ws: Workspace, issue: number): Promise<void> {
    await prepareBranch(ws, {
      name: `autofix/fix/${issue}-x`,
      issue,
      identity: DEFAULT_BOT_IDENTITY,
    });
    await writeFile(join(ws.worktree, 'src/app.js'), 'export const answer = 42;\n');
    await commitChanges(ws, { message: `fix(app): the answer\n\nFixes #${issue}\n` });
    await writeFile(join(ws.worktree, 'README.md'), 'modified, not staged\n');
    await writeFile(join(ws.worktree, 'src/staged.js'), 'staged\n');
    git(ws.worktree, ['add', 'src/staged.js']);
    git(ws.worktree, ['rm', '-q', 'src/old.js']);
    await chmod(join(ws.worktree, 'bin/run.sh'), 0o644);
    await write(ws.worktree, 'notes.txt', 'untracked');
    await write(ws.worktree, 'scratch/deep/file.txt', 'untracked dir');
    await write(ws.worktree, 'node_modules/dep/index.js', 'ignored, and could be poisoned');
    await write(ws.worktree, 'dist/out.js', 'ignored build output');
    await write(ws.worktree, '.env', 'SECRET=from-the-first-job');
    // A nested repository (a test fixture, a vendored checkout): `clean -ff` removes it too.
    await mkdir(join(ws.worktree, 'vendor/nested'), { recursive: true });
    git(join(ws.worktree, 'vendor/nested'), ['init', '-q']);
  }

  it('the second run gets the first run’s worktree, scrubbed, at the user’s new HEAD', async () => {
    expect(LOCAL_RECYCLED_WORKTREES).toBeGreaterThan(0);
    const first = await openWorkspace(options('run-1'));
    expect(first.recycleWorktrees).toBe(LOCAL_RECYCLED_WORKTREES);
    expect(first.remoteUrl).toBe(user);
    await messUp(first, 1);
    await pushBranch(first); // the run's branch lands in the user's repository
    await closeWorkspace(first);
    expect(git(user, ['rev-parse', '--verify', 'autofix/fix/1-x'])).toMatch(/^[0-9a-f]{40}$/);
    expect(await pool()).toHaveLength(1);
    expect(existsSync(first.jobDir)).toBe(false);
    expect(registered(first)).toBe(1); // only the parked one

    // The user commits before the next run: that is its base.
    userRepo.commit('more', { 'src/new.js': 'export {};\n' });
    const head = git(user, ['rev-parse', 'HEAD']);

    const second = await openWorkspace(options('run-2'));
    expect(second.gitDir).toBe(first.gitDir); // the same worktree, recycled
    expect(await pool()).toHaveLength(0);
    expect(second.base_commit).toBe(head);
    await expectPristine(second, head);
    expect(await readFile(join(second.worktree, 'src/new.js'), 'utf8')).toBe('export {};\n');
    for (const gone of ['notes.txt', 'scratch', 'node_modules', 'dist', '.env', 'vendor']) {
      expect(existsSync(join(second.worktree, gone))).toBe(false);
    }
    // The user's checkout was never touched.
    expect(git(user, ['status', '--porcelain', '--ignored'])).toBe('');
    await closeWorkspace(second);
    expect(await pool()).toHaveLength(1);
    expect(registered(second)).toBe(1);
  });

  it('a job that failed midway (rolled back, a stale index.lock) leaves a usable worktree', async () => {
    const first = await openWorkspace(options('fail-1'));
    try {
      await messUp(first, 2);
      // A git command killed by a time-out leaves its lock behind.
      await writeFile(join(first.gitDir, 'index.lock'), '');
      throw new Error('validation crashed');
    } catch {
      // What runIssue does on a failure: roll back, then close.
      await rollbackWorkspace(first, {});
    } finally {
      await closeWorkspace(first);
    }
    expect(await pool()).toHaveLength(1);

    const second = await openWorkspace(options('fail-2'));
    expect(second.gitDir).toBe(first.gitDir);
    await expectPristine(second, git(user, ['rev-parse', 'HEAD']));
    await closeWorkspace(second);
  });

  it('a run that fails while opening (its base branch is gone) parks the claimed worktree again', async () => {
    const parked = await openWorkspace(options('warm-up'));
    await closeWorkspace(parked);
    expect(await pool()).toHaveLength(1);

    await expect(openWorkspace(options('no-base', 'no-such-branch'))).rejects.toThrow(
      /no-such-branch/,
    );
    expect(await pool()).toHaveLength(1); // not lost
    expect(existsSync(join(workdir, 'jobs', 'no-base'))).toBe(false);

    const next = await openWorkspace(options('after'));
    expect(next.gitDir).toBe(parked.gitDir);
    await expectPristine(next, git(user, ['rev-parse', 'HEAD']));
    await closeWorkspace(next);
  });

  it('a parked worktree that cannot be refreshed is replaced, never handed on', async () => {
    const first = await openWorkspace(options('broken-1'));
    await closeWorkspace(first);
    expect(await pool()).toHaveLength(1);
    // Something broke it while parked (a crash mid-write, a full disk): its index is garbage.
    await writeFile(join(first.gitDir, 'index'), 'not an index');

    const log = recordingLogger();
    const second = await openWorkspace(options('broken-2', 'main', log));
    expect(log.warnings).toContain('recycled worktree unusable; replaced');
    await expectPristine(second, git(user, ['rev-parse', 'HEAD']));
    expect(registered(second)).toBe(1); // the broken one is forgotten
    await closeWorkspace(second);

    // The replacement is parked and recycled as usual.
    const third = await openWorkspace(options('broken-3'));
    expect(third.gitDir).toBe(second.gitDir);
    await expectPristine(third, git(user, ['rev-parse', 'HEAD']));
    await closeWorkspace(third);
  });
});
