import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { prepareBranch } from '../../../src/git/branch.js';
import { commitChanges } from '../../../src/git/commit.js';
import { DEFAULT_BOT_IDENTITY } from '../../../src/git/identity.js';
import { pushBranch } from './helpers.js';
import { rollbackWorkspace } from '../../../src/git/rollback.js';
import { closeWorkspace, openWorkspace, type Workspace } from '../../../src/git/workspace.js';
import {
  git,
  makeRemote,
  pushCommit,
  rejectPushes,
  remoteHeads,
  remoteSha,
  removeDir,
  tempDir,
  type Remote,
} from './helpers.js';

const NAME = 'autofix/fix/42-wrong-answer';
const MESSAGE = 'fix(app): return the right answer from app\n\nFixes #42\n';

describe('push and rollback', () => {
  let root: string;
  let remote: Remote;
  const open: Workspace[] = [];

  beforeEach(async () => {
    root = await tempDir();
    remote = await makeRemote(root);
  });
  afterEach(async () => {
    for (const ws of open.splice(0)) await closeWorkspace(ws);
    await removeDir(root);
  });

  /** A job that has committed a change on its branch (not pushed yet). */
  const committedJob = async (jobId: string) => {
    const ws = await openWorkspace({
      workdir: join(root, 'work'),
      repo: 'acme/demo',
      remoteUrl: remote.url,
      baseBranch: 'main',
      jobId,
    });
    open.push(ws);
    await prepareBranch(ws, { name: NAME, issue: 42, identity: DEFAULT_BOT_IDENTITY });
    await writeFile(join(ws.worktree, 'src/app.js'), 'export const answer = 42;\n');
    const commit = await commitChanges(ws, { message: MESSAGE });
    return { ws, commit };
  };

  it('pushes the bot branch', async () => {
    const { ws, commit } = await committedJob('p1');
    expect(await pushBranch(ws)).toBe(commit.sha);
    expect(remoteSha(remote, NAME)).toBe(commit.sha);
    expect(ws.branch?.pushedSha).toBe(commit.sha);
  });

  it('maps a remote rejection to PERMISSION_DENIED with the remote message', async () => {
    const { ws } = await committedJob('p2');
    await rejectPushes(
      remote,
      'refusing to allow a GitHub App to create or update workflow without workflows permission',
    );
    const err = (await pushBranch(ws).catch((e: unknown) => e)) as {
      code: string;
      message: string;
    };
    expect(err.code).toBe('PERMISSION_DENIED');
    expect(err.message).toContain('without workflows permission');
    expect(remoteSha(remote, NAME)).toBeNull();
    expect(ws.branch?.pushedSha).toBeNull();
  });

  it('does not overwrite a branch that moved since the job fetched it', async () => {
    const { ws } = await committedJob('p3');
    await pushCommit(remote, NAME, 'other.txt', 'pushed by someone meanwhile\n');
    await expect(pushBranch(ws)).rejects.toMatchObject({ code: 'GIT_CONFLICT' });
  });

  it('rolls back after a push: no branch locally or on the remote, worktree at baseline', async () => {
    const { ws } = await committedJob('p4');
    await pushBranch(ws);
    await writeFile(join(ws.worktree, 'untracked.txt'), 'junk');
    const mirrorRefs = git(ws.mirrorDir, ['for-each-ref', 'refs/remotes']);

    const report = await rollbackWorkspace(ws);
    expect(report.problems).toEqual([]);
    expect(remoteHeads(remote)).toEqual(['refs/heads/main']);
    expect(git(ws.mirrorDir, ['branch', '--list', NAME])).toBe('');
    expect(git(ws.worktree, ['rev-parse', 'HEAD'])).toBe(ws.baseline_commit);
    expect(git(ws.worktree, ['status', '--porcelain'])).toBe('');
    expect(existsSync(join(ws.worktree, 'untracked.txt'))).toBe(false);
    // The mirror's fetched state is untouched.
    expect(git(ws.mirrorDir, ['for-each-ref', 'refs/remotes'])).toBe(mirrorRefs);

    // Idempotent: a second call (or one from another process with the persisted record) is a no-op.
    const again = await rollbackWorkspace(JSON.parse(JSON.stringify(ws)) as Workspace);
    expect(again.problems).toEqual([]);
    const third = await rollbackWorkspace(ws);
    expect(third.problems).toEqual([]);
    expect(remoteHeads(remote)).toEqual(['refs/heads/main']);
  });

  it('rolls back after the worktree is already gone (crash after close)', async () => {
    const { ws } = await committedJob('p5');
    await pushBranch(ws);
    await closeWorkspace(ws);
    const report = await rollbackWorkspace(ws);
    expect(report.problems).toEqual([]);
    expect(remoteHeads(remote)).toEqual(['refs/heads/main']);
  });

  it('puts a reused bot branch back where it was instead of deleting it', async () => {
    const { ws: first, commit } = await committedJob('p6');
    await pushBranch(first);
    await closeWorkspace(first);

    const ws = await openWorkspace({
      workdir: join(root, 'work'),
      repo: 'acme/demo',
      remoteUrl: remote.url,
      baseBranch: 'main',
      jobId: 'p7',
    });
    open.push(ws);
    await prepareBranch(ws, {
      name: NAME,
      issue: 42,
      identity: DEFAULT_BOT_IDENTITY,
      existing: 'extend',
    });
    await writeFile(join(ws.worktree, 'README.md'), 'more\n');
    await commitChanges(ws, {
      message: 'fix(app): a second commit for the same issue\n\nFixes #42\n',
    });
    await pushBranch(ws);
    const report = await rollbackWorkspace(ws);
    expect(report.problems).toEqual([]);
    expect(remoteSha(remote, NAME)).toBe(commit.sha);
    expect(git(ws.worktree, ['rev-parse', 'HEAD'])).toBe(commit.sha);
  });

  it('leaves a remote branch alone when someone else moved it after our push', async () => {
    const { ws } = await committedJob('p8');
    await pushBranch(ws);
    const theirs = await pushCommit(remote, NAME, 'review.txt', 'maintainer fixup\n');
    const report = await rollbackWorkspace(ws);
    expect(report.problems.join('\n')).toContain('left alone');
    expect(remoteSha(remote, NAME)).toBe(theirs);
  });
});
