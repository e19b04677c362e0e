import { basicSandboxPolicy } from '../../../src/exec/sandbox-policy.js';
import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_REPO_CONFIG } from '../../../src/config/repo-config.js';
import { runValidation } from '../../../src/exec/run-validation.js';
import { prepareBranch } from '../../../src/git/branch.js';
import { commitChanges } from '../../../src/git/commit.js';
import { DEFAULT_BOT_IDENTITY } from '../../../src/git/identity.js';
import { jobPaths } from '../../../src/git/job-paths.js';
import { pushBranch } from './helpers.js';
import { closeWorkspace, openWorkspace, withWorkspace } from '../../../src/git/workspace.js';
import {
  git,
  makeRemote,
  pushCommit,
  remoteHeads,
  removeDir,
  tempDir,
  type Remote,
} from './helpers.js';

describe('workspace cache', () => {
  let root: string;
  let remote: Remote;
  let workdir: string;

  beforeEach(async () => {
    root = await tempDir();
    remote = await makeRemote(root);
    workdir = join(root, 'work');
  });
  afterEach(async () => {
    await removeDir(root);
  });

  const options = (jobId: string) => ({
    workdir,
    repo: 'acme/demo',
    remoteUrl: remote.url,
    baseBranch: 'main',
    jobId,
  });

  it('checks out a clean worktree at the base head and removes it when the job ends', async () => {
    const head = git(remote.dir, ['rev-parse', 'main']);
    const ws = await openWorkspace(options('job-1'));
    expect(ws.baseline_commit).toBe(head);
    expect(ws.base_commit).toBe(head);
    expect(git(ws.worktree, ['rev-parse', 'HEAD'])).toBe(head);
    expect(git(ws.worktree, ['status', '--porcelain'])).toBe('');
    expect(existsSync(join(ws.worktree, 'src/app.js'))).toBe(true);
    expect(existsSync(ws.homeDir)).toBe(true);
    // Where others (the check run's relative paths) look for a job's worktree.
    expect(ws.worktree).toBe(jobPaths(workdir, 'job-1', 'acme/demo').worktree);

    await closeWorkspace(ws);
    expect(existsSync(ws.jobDir)).toBe(false);
    expect(git(ws.mirrorDir, ['worktree', 'list', '--porcelain'])).not.toContain(ws.worktree);
    await closeWorkspace(ws); // twice is fine
  });

  it('clones the mirror once and fetches new commits for the next job', async () => {
    const first = await openWorkspace(options('job-1'));
    await writeFile(join(first.mirrorDir, 'marker'), 'still the same mirror');
    await closeWorkspace(first);

    const newHead = await pushCommit(remote, 'main', 'src/new.js', 'export {};\n');
    const second = await openWorkspace(options('job-2'));
    expect(existsSync(join(second.mirrorDir, 'marker'))).toBe(true);
    expect(second.baseline_commit).toBe(newHead);
    expect(existsSync(join(second.worktree, 'src/new.js'))).toBe(true);
    await closeWorkspace(second);
    // The mirror is bare: it holds history, never a checkout.
    expect(git(second.mirrorDir, ['rev-parse', '--is-bare-repository'])).toBe('true');
  });

  it('runs two jobs on one repository at the same time', async () => {
    const [a, b] = await Promise.all([
      openWorkspace(options('job-a')),
      openWorkspace(options('job-b')),
    ]);
    expect(a.worktree).not.toBe(b.worktree);
    await writeFile(join(a.worktree, 'README.md'), 'changed in a\n');
    expect(git(b.worktree, ['status', '--porcelain'])).toBe('');
    await Promise.all([closeWorkspace(a), closeWorkspace(b)]);
    expect(await readdir(join(workdir, 'jobs'))).toEqual([]);
  });

  it('runs two whole jobs (fetch, branch, commit, push) on one repository concurrently', async () => {
    const job = (issue: number) =>
      withWorkspace(options(`job-${issue}`), async (ws) => {
        await prepareBranch(ws, {
          name: `autofix/fix/${issue}-concurrent`,
          issue,
          identity: DEFAULT_BOT_IDENTITY,
        });
        await writeFile(join(ws.worktree, `issue-${issue}.txt`), `fixed ${issue}\n`);
        await commitChanges(ws, {
          message: `fix(core): concurrent fix number ${issue} lands\n\nFixes #${issue}\n`,
        });
        return pushBranch(ws);
      });
    const [a, b] = await Promise.all([job(1), job(2)]);
    expect(a).not.toBe(b);
    expect(remoteHeads(remote).sort()).toEqual([
      'refs/heads/autofix/fix/1-concurrent',
      'refs/heads/autofix/fix/2-concurrent',
      'refs/heads/main',
    ]);
    expect(await readdir(join(workdir, 'jobs'))).toEqual([]);
    expect(git(join(workdir, 'mirrors/acme/demo.git'), ['branch', '--list'])).toBe('');
  });

  it('runs validation sandboxed in the workspace: git works, other jobs are invisible', async () => {
    const [ws, other] = await Promise.all([
      openWorkspace(options('v1')),
      openWorkspace(options('v2')),
    ]);
    try {
      const run = await runValidation(
        {
          ...DEFAULT_REPO_CONFIG,
          setup: [`sh -c 'echo cached > "$HOME/npm-cache"'`],
          validate: [
            'git status --porcelain',
            // Neither the other job's checkout nor its git directory in the mirror is there.
            `sh -c 'test ! -e ${other.worktree} && test ! -e ${join(workdir, 'jobs', 'v2')} && test ! -e ${other.gitDir}'`,
            `sh -c 'cat "$HOME/npm-cache" && echo built > out.txt'`,
          ],
        },
        ws.worktree,
        {
          sandbox: basicSandboxPolicy('bwrap'),
          home: ws.homeDir,
          tmpDir: ws.tmpDir,
          hiddenPaths: ws.sandboxHidden,
          readOnlyPaths: ws.sandboxReadOnly,
        },
      );
      expect(run.results.map((r) => [r.exit_code, r.stderr])).toEqual([
        [0, ''],
        [0, ''],
        [0, ''],
        [0, ''],
      ]);
      expect(run.results[3]!.stdout).toBe('cached\n');
      expect(git(ws.worktree, ['status', '--porcelain'])).toBe('?? out.txt');
    } finally {
      await Promise.all([closeWorkspace(ws), closeWorkspace(other)]);
    }
  });

  it('removes the worktree even when the job throws', async () => {
    let jobDir = '';
    await expect(
      withWorkspace(options('job-x'), async (ws) => {
        jobDir = ws.jobDir;
        await writeFile(join(ws.worktree, 'half-done.txt'), 'x');
        throw new Error('job failed');
      }),
    ).rejects.toThrow('job failed');
    expect(jobDir).not.toBe('');
    expect(existsSync(jobDir)).toBe(false);
  });

  it('replaces what a crashed attempt with the same job id left behind', async () => {
    const crashed = await openWorkspace(options('job-r'));
    await writeFile(join(crashed.worktree, 'leftover.txt'), 'x');
    const retry = await openWorkspace(options('job-r'));
    expect(existsSync(join(retry.worktree, 'leftover.txt'))).toBe(false);
    expect(git(retry.worktree, ['status', '--porcelain'])).toBe('');
    await closeWorkspace(retry);
  });

  it('refuses credentials in the remote URL and unknown base branches', async () => {
    await expect(
      openWorkspace({
        ...options('j'),
        remoteUrl: 'https://x-access-token:abc@github.com/a/b.git',
      }),
    ).rejects.toThrow('must not carry credentials');
    await expect(openWorkspace({ ...options('j2'), baseBranch: 'nope' })).rejects.toThrow();
  });
});
