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
  remoteSha,
  removeDir,
  tempDir,
  type Remote,
} from './helpers.js';

const MESSAGE = 'fix(app): return the right answer from app\n\nFixes #42\n';

describe('branch and commit', () => {
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

  const workspace = async (jobId: string) => {
    const ws = await openWorkspace({
      workdir: join(root, 'work'),
      repo: 'acme/demo',
      remoteUrl: remote.url,
      baseBranch: 'main',
      jobId,
    });
    open.push(ws);
    return ws;
  };
  const branch = { name: 'autofix/fix/42-wrong-answer', issue: 42, identity: DEFAULT_BOT_IDENTITY };

  it('refuses a feedback commit when the bot branch is gone, leaving the worktree at the base', async () => {
    const ws = await workspace('j-gone');
    const refused = prepareBranch(ws, { ...branch, mustExist: true });
    await expect(refused).rejects.toMatchObject({ code: 'STALE_CONTEXT' });
    await expect(refused).rejects.toThrow(`branch ${branch.name} no longer exists on the remote`);
    expect(ws.branch).toBeNull();
    expect(git(ws.worktree, ['rev-parse', 'HEAD'])).toBe(ws.base_commit);
  });

  it('commits with a validated message, sign-off, bot identity and the issue trailer', async () => {
    const ws = await workspace('j1');
    await prepareBranch(ws, branch);
    await writeFile(join(ws.worktree, 'src/app.js'), 'export const answer = 42;\n');
    await writeFile(join(ws.worktree, 'src/extra.js'), 'export {};\n');
    const validation = [
      {
        command: 'npm test',
        exit_code: 0,
        stdout: 'ok',
        stderr: '',
        duration_ms: 5,
        timed_out: false,
      },
    ];
    const commit = await commitChanges(ws, { message: MESSAGE, validationResults: validation });

    expect(commit.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(commit.branch).toBe(branch.name);
    expect(commit.issue_number).toBe(42);
    expect(commit.files_changed.sort()).toEqual(['src/app.js', 'src/extra.js']);
    expect(commit.diff).toContain('+export const answer = 42;');
    expect(commit.validation_results).toEqual(validation);
    expect(Date.parse(commit.timestamp)).not.toBeNaN();
    expect(commit.message).toBe(
      'fix(app): return the right answer from app\n\nFixes #42\n\n' +
        `Signed-off-by: ${DEFAULT_BOT_IDENTITY.name} <${DEFAULT_BOT_IDENTITY.email}>\n` +
        'Autofix-Issue: 42',
    );
    expect(git(ws.worktree, ['log', '-1', '--format=%an <%ae>|%cn <%ce>'])).toBe(
      `${DEFAULT_BOT_IDENTITY.name} <${DEFAULT_BOT_IDENTITY.email}>|${DEFAULT_BOT_IDENTITY.name} <${DEFAULT_BOT_IDENTITY.email}>`,
    );
    expect(git(ws.worktree, ['rev-parse', '--abbrev-ref', 'HEAD'])).toBe(branch.name);
  });

  it('refuses a commit message that breaks the rule and creates no commit', async () => {
    const ws = await workspace('j2');
    await prepareBranch(ws, branch);
    await writeFile(join(ws.worktree, 'src/app.js'), 'export const answer = 42;\n');
    for (const bad of [
      'Fixed the answer\n\nFixes #42',
      'fix(app): return the right answer\n\nFixes #41',
      'fix(app): return the right answer',
    ]) {
      await expect(commitChanges(ws, { message: bad })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
    }
    expect(git(ws.worktree, ['rev-parse', 'HEAD'])).toBe(ws.baseline_commit);
  });

  it('treats an empty change as an error, not an empty commit', async () => {
    const ws = await workspace('j3');
    await prepareBranch(ws, branch);
    await expect(commitChanges(ws, { message: MESSAGE })).rejects.toMatchObject({
      code: 'INVALID_DIFF',
    });
    expect(git(ws.worktree, ['rev-parse', 'HEAD'])).toBe(ws.baseline_commit);
  });

  it('commits only the change set when given its paths', async () => {
    const ws = await workspace('j4');
    await prepareBranch(ws, branch);
    await writeFile(join(ws.worktree, 'src/app.js'), 'export const answer = 42;\n');
    await writeFile(join(ws.worktree, 'build-output.txt'), 'left by validation\n');
    const commit = await commitChanges(ws, { message: MESSAGE, paths: ['src/app.js'] });
    expect(commit.files_changed).toEqual(['src/app.js']);
  });

  it('extends the bot branch for the same issue when asked to (feedback), committing on top', async () => {
    const first = await workspace('j5');
    await prepareBranch(first, branch);
    await writeFile(join(first.worktree, 'src/app.js'), 'export const answer = 42;\n');
    const c1 = await commitChanges(first, { message: MESSAGE });
    await pushBranch(first);
    await closeWorkspace(first);

    const second = await workspace('j6');
    const state = await prepareBranch(second, { ...branch, existing: 'extend' });
    expect(state.remoteShaBefore).toBe(c1.sha);
    expect(second.baseline_commit).toBe(c1.sha);
    await writeFile(join(second.worktree, 'README.md'), '# demo, fixed\n');
    const c2 = await commitChanges(second, {
      message: 'fix(app): document the corrected answer too\n\nFixes #42\n',
    });
    await pushBranch(second);
    expect(git(remote.dir, ['rev-parse', `refs/heads/${branch.name}`])).toBe(c2.sha);
    expect(git(remote.dir, ['rev-parse', `${c2.sha}^`])).toBe(c1.sha);
  });

  it('is BRANCH_EXISTS when the branch was made by someone else or for another issue', async () => {
    await pushCommit(remote, branch.name, 'src/app.js', 'human change\n');
    const ws = await workspace('j7');
    await expect(prepareBranch(ws, branch)).rejects.toMatchObject({
      code: 'BRANCH_EXISTS',
      message: expect.stringContaining('maintainer@example.com') as unknown,
    });

    // A bot branch, but for issue 7: not ours for issue 42.
    const other = await workspace('j8');
    const name = 'autofix/fix/7-other';
    await prepareBranch(other, { ...branch, name, issue: 7 });
    await writeFile(join(other.worktree, 'src/app.js'), 'export const answer = 7;\n');
    await commitChanges(other, {
      message: 'fix(app): another change for issue seven\n\nFixes #7\n',
    });
    await pushBranch(other);
    const third = await workspace('j9');
    await expect(prepareBranch(third, { ...branch, name })).rejects.toMatchObject({
      code: 'BRANCH_EXISTS',
      message: expect.stringContaining('issue 7') as unknown,
    });
  });

  it('refuses branches outside the bot prefix', async () => {
    const ws = await workspace('j10');
    await expect(prepareBranch(ws, { ...branch, name: 'main' })).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
  });

  describe('a branch an earlier run pushed', () => {
    /** Pushes one bot commit for issue 42 made by `runId`; returns its sha. */
    const pushRun = async (jobId: string, runId: string, content: string): Promise<string> => {
      const ws = await workspace(jobId);
      await prepareBranch(ws, { ...branch, existing: 'replace' });
      await writeFile(join(ws.worktree, 'src/app.js'), content);
      const commit = await commitChanges(ws, { message: MESSAGE, runId });
      await pushBranch(ws);
      await closeWorkspace(ws);
      return commit.sha;
    };

    it('records the run in an Autofix-Run trailer', async () => {
      const sha = await pushRun('r0', 'run-aaaa', 'export const answer = 42;\n');
      expect(
        git(remote.dir, ['log', '-1', '--format=%(trailers:key=Autofix-Run,valueonly)', sha]),
      ).toBe('run-aaaa');
    });

    it('is refused by default, naming the branch, the earlier tip and how to start over', async () => {
      const sha = await pushRun('r1', 'run-aaaa', 'export const answer = 42;\n');
      const ws = await workspace('r1b');
      const refused = prepareBranch(ws, { ...branch, startOverHint: 'Run again with --fresh.' });
      await expect(refused).rejects.toMatchObject({ code: 'BRANCH_EXISTS' });
      await expect(refused).rejects.toThrow(
        `branch ${branch.name} already exists for issue #42: it holds 1 commit(s) of an earlier run (tip ${sha.slice(0, 12)}); it was left as it is. Run again with --fresh.`,
      );
      expect(remoteSha(remote, branch.name)).toBe(sha);
    });

    it('replaces it from the base when asked, with a lease on the old tip; rollback puts the old tip back', async () => {
      const old = await pushRun('r3', 'run-aaaa', 'export const answer = 42;\n');
      const ws = await workspace('r3b');
      const state = await prepareBranch(ws, { ...branch, existing: 'replace' });
      expect(state.replaced).toBe(old);
      expect(state.remoteShaBefore).toBe(old);
      expect(git(ws.worktree, ['rev-parse', 'HEAD'])).toBe(ws.base_commit);
      await writeFile(join(ws.worktree, 'src/app.js'), 'export const answer = 43;\n');
      const commit = await commitChanges(ws, { message: MESSAGE, runId: 'run-cccc' });
      await pushBranch(ws);
      expect(remoteSha(remote, branch.name)).toBe(commit.sha);
      expect(git(remote.dir, ['rev-parse', `${commit.sha}^`])).toBe(ws.base_commit);
      await rollbackWorkspace(ws);
      expect(remoteSha(remote, branch.name)).toBe(old);
    });

    it('replaces a bot-only branch but refuses one a maintainer committed to (replace-bot-only)', async () => {
      await pushRun('r4', 'run-aaaa', 'export const answer = 42;\n');
      const botOnly = await workspace('r4b');
      const state = await prepareBranch(botOnly, { ...branch, existing: 'replace-bot-only' });
      expect(state.replaced).toBeDefined();
      await closeWorkspace(botOnly);

      const human = await pushCommit(remote, branch.name, 'README.md', 'maintainer fixup\n');
      const ws = await workspace('r4c');
      const refused = prepareBranch(ws, { ...branch, existing: 'replace-bot-only' });
      await expect(refused).rejects.toThrow("1 of its 2 commit(s) are not the bot's");
      expect(remoteSha(remote, branch.name)).toBe(human);
    });
  });
});
