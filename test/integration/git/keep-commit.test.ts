/**
 * Publish last, at the git level: the kept commit lives on the run's private ref (no branch),
 * another worker's mirror can fetch it, publishing moves it to the branch and deletes the private
 * ref in one push, a retried publish only finishes, a moved branch is never overwritten, and a
 * rollback removes what the run left — the private ref, and the branch if it was published.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { prepareBranch } from '../../../src/git/branch.js';
import { commitChanges } from '../../../src/git/commit.js';
import { DEFAULT_BOT_IDENTITY } from '../../../src/git/identity.js';
import { findKept, keepCommit, keptRefOf, publishKept } from '../../../src/git/keep-commit.js';
import { rollbackWorkspace } from '../../../src/git/rollback.js';
import { closeWorkspace, openWorkspace, type Workspace } from '../../../src/git/workspace.js';
import {
  git,
  makeRemote,
  pushCommit,
  remoteSha,
  removeDir,
  tempDir,
  type Remote,
} from './helpers.js';

const NAME = 'autofix/fix/42-wrong-answer';
const RUN = 'run-0123456789abcdef';
const REF = `refs/autofix/runs/${RUN}`;

describe('the kept commit and the publish step', () => {
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

  /** A job's workspace; `workdir` apart means another worker with its own mirror. */
  const job = async (jobId: string, workdir = 'work', branch = true): Promise<Workspace> => {
    const ws = await openWorkspace({
      workdir: join(root, workdir),
      repo: 'acme/demo',
      remoteUrl: remote.url,
      baseBranch: 'main',
      jobId,
    });
    open.push(ws);
    if (branch) await prepareBranch(ws, { name: NAME, issue: 42, identity: DEFAULT_BOT_IDENTITY });
    return ws;
  };
  const kept = async (jobId: string): Promise<{ ws: Workspace; sha: string }> => {
    const ws = await job(jobId);
    await writeFile(join(ws.worktree, 'src/app.js'), 'export const answer = 42;\n');
    const commit = await commitChanges(ws, {
      message: 'fix(app): return the right answer from app\n\nFixes #42\n',
      runId: RUN,
    });
    await keepCommit(ws, RUN);
    return { ws, sha: commit.sha };
  };
  const refs = (): string => git(remote.dir, ['for-each-ref', '--format=%(refname)']);

  it('keeps the commit on the private ref only: no branch, nothing under refs/heads/', async () => {
    const { sha } = await kept('k1');
    expect(git(remote.dir, ['rev-parse', REF])).toBe(sha);
    expect(remoteSha(remote, NAME)).toBeNull();
    expect(refs()).not.toContain('refs/heads/autofix');
  });

  it('is found by a retry on another worker, whose mirror fetches it', async () => {
    const { sha } = await kept('k2');
    const other = await job('k2-retry', 'other-worker');
    expect(await findKept(other, RUN)).toEqual({ ref: REF, sha });
    expect(git(other.mirrorDir, ['cat-file', '-t', sha])).toBe('commit');
    expect(await findKept(other, 'run-ffffffffffffffff')).toBeNull();
  });

  it('publishes in one push: the branch at the kept commit, the private ref gone', async () => {
    const { ws, sha } = await kept('k3');
    expect(await publishKept(ws)).toBe(sha);
    expect(remoteSha(remote, NAME)).toBe(sha);
    expect(refs()).not.toContain('refs/autofix/');
    expect(ws.branch?.pushedSha).toBe(sha);
  });

  it('publishes from another worker that never had the commit', async () => {
    const { ws, sha } = await kept('k4');
    const other = await job('k4-pr', 'other-worker', false);
    other.branch = { ...ws.branch!, pushedSha: null };
    await publishKept(other);
    expect(remoteSha(remote, NAME)).toBe(sha);
    expect(refs()).not.toContain('refs/autofix/');
  });

  it('a retried publish after one that landed only finishes', async () => {
    const { ws, sha } = await kept('k5');
    const state = { ...ws.branch! };
    await publishKept(ws);
    // The publish stage's own workspace: it does not prepare a branch, it is given the state.
    const retry = await job('k5-retry', 'other-worker', false);
    retry.branch = { ...state, pushedSha: null };
    expect(await publishKept(retry)).toBe(sha);
    expect(remoteSha(remote, NAME)).toBe(sha);
  });

  it('never overwrites a branch someone created meanwhile, and keeps the private ref', async () => {
    const { ws, sha } = await kept('k6');
    const theirs = await pushCommit(remote, NAME, 'theirs.txt', 'pushed meanwhile\n');
    await expect(publishKept(ws)).rejects.toMatchObject({ code: 'GIT_CONFLICT' });
    expect(remoteSha(remote, NAME)).toBe(theirs);
    expect(git(remote.dir, ['rev-parse', REF])).toBe(sha);
  });

  it('rollback before the publish deletes the private ref; after it also resets the branch', async () => {
    const before = await kept('k7');
    const report = await rollbackWorkspace(before.ws);
    expect(report.problems).toEqual([]);
    expect(refs()).not.toContain('refs/autofix/');

    const after = await kept('k8');
    await publishKept(after.ws);
    expect(remoteSha(remote, NAME)).toBe(after.sha);
    const second = await rollbackWorkspace(after.ws);
    expect(second.problems).toEqual([]);
    expect(remoteSha(remote, NAME)).toBeNull();
    expect(refs()).not.toContain('refs/autofix/');
  });

  it('refuses a run id that is not a plain name (no ref outside refs/autofix/runs/)', () => {
    expect(keptRefOf(RUN)).toBe(REF);
    for (const bad of ['../heads/main', 'a/b', '', 'x..y', '-rf', 'a b']) {
      expect(() => keptRefOf(bad)).toThrow('not a run id');
    }
  });
});
