import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { prepareBranch } from '../../../src/git/branch.js';
import { commitChanges } from '../../../src/git/commit.js';
import { DEFAULT_BOT_IDENTITY } from '../../../src/git/identity.js';
import { closeWorkspace, openWorkspace } from '../../../src/git/workspace.js';
import { git, makeRemote, pushCommit, removeDir, tempDir, type Remote } from './helpers.js';

describe('worktree recycling (opt-in) and the .git link', () => {
  let root: string;
  let remote: Remote;
  let workdir: string;

  beforeEach(async () => {
    root = await tempDir();
    remote = await makeRemote(root, {
      '.gitignore': 'node_modules/\n',
      'README.md': '# demo\n',
      'src/app.js': 'export const answer = 41;\n',
    });
    workdir = join(root, 'work');
  });
  afterEach(async () => {
    await removeDir(root);
  });

  const open = (jobId: string, recycleWorktrees = 1) =>
    openWorkspace({
      workdir,
      repo: 'acme/demo',
      remoteUrl: remote.url,
      baseBranch: 'main',
      jobId,
      recycleWorktrees,
    });
  const pool = () => readdir(join(workdir, 'pool', 'acme', 'demo')).catch(() => []);

  it('hands the next job a scrubbed worktree at the new base', async () => {
    const first = await open('r1');
    await prepareBranch(first, {
      name: 'autofix/fix/1-x',
      issue: 1,
      identity: DEFAULT_BOT_IDENTITY,
    });
    await writeFile(join(first.worktree, 'src/app.js'), 'export const answer = 42;\n');
    await commitChanges(first, {
      message: 'fix(app): a change that is never pushed\n\nFixes #1\n',
    });
    await writeFile(join(first.worktree, 'README.md'), 'dirty\n');
    await writeFile(join(first.worktree, 'untracked.txt'), 'x');
    await mkdir(join(first.worktree, 'node_modules/dep'), { recursive: true });
    await writeFile(join(first.worktree, 'node_modules/dep/index.js'), 'ignored but stale');
    await closeWorkspace(first);
    expect(await pool()).toHaveLength(1);
    expect(existsSync(first.jobDir)).toBe(false);

    const newHead = await pushCommit(remote, 'main', 'src/new.js', 'export {};\n');
    const second = await open('r2');
    expect(await pool()).toHaveLength(0);
    expect(second.gitDir).toBe(first.gitDir); // the same worktree, recycled
    expect(git(second.worktree, ['rev-parse', 'HEAD'])).toBe(newHead);
    expect(git(second.worktree, ['status', '--porcelain', '--ignored'])).toBe('');
    expect(existsSync(join(second.worktree, 'node_modules'))).toBe(false);
    expect(existsSync(join(second.worktree, 'src/new.js'))).toBe(true);
    expect(git(second.mirrorDir, ['branch', '--list'])).toBe('');
    await closeWorkspace(second);
  });

  it('parks a worktree scrubbed and detached: a staged change, an untracked file, a branch', async () => {
    const first = await open('r1');
    await prepareBranch(first, {
      name: 'autofix/fix/2-y',
      issue: 2,
      identity: DEFAULT_BOT_IDENTITY,
    });
    await writeFile(join(first.worktree, 'README.md'), 'staged\n');
    git(first.worktree, ['add', 'README.md']);
    await writeFile(join(first.worktree, 'src/app.js'), 'changed, not staged\n');
    await writeFile(join(first.worktree, 'left.txt'), 'x');
    await closeWorkspace(first);
    const [slot] = await pool();
    const parked = join(workdir, 'pool', 'acme', 'demo', slot!, 'demo');
    const inPool = ['--git-dir', first.gitDir, '--work-tree', parked];
    expect(git(parked, [...inPool, 'status', '--porcelain', '--ignored'])).toBe('');
    expect(readFileSync(join(first.gitDir, 'HEAD'), 'utf8')).not.toMatch(/^ref:/);
    // Registered at its place in the pool, and locked: another job's prune keeps it.
    git(first.mirrorDir, ['worktree', 'prune']);
    const listed = git(first.mirrorDir, ['worktree', 'list', '--porcelain']);
    expect(listed).toContain(`worktree ${parked}\n`);
    expect(listed).toContain('locked parked in the autofix pool');
    // The same, parked by a job that changed nothing: nothing to scrub, still detached.
    const second = await open('r2');
    await closeWorkspace(second);
    expect(git(parked, [...inPool, 'status', '--porcelain', '--ignored'])).toBe('');
  });

  it('gives up a parked worktree whose registration no longer points at its slot', async () => {
    const first = await open('r1');
    await closeWorkspace(first);
    expect(await pool()).toHaveLength(1);
    // Something else (a re-created mirror's worktree of the same id) owns the registration now.
    writeFileSync(join(first.gitDir, 'gitdir'), `${join(workdir, 'elsewhere', 'demo')}/.git\n`);
    const second = await open('r2');
    expect(second.gitDir).not.toBe(first.gitDir); // a new worktree, not the parked one
    expect(readFileSync(join(first.gitDir, 'gitdir'), 'utf8')).toContain('elsewhere');
    expect(git(second.worktree, ['status', '--porcelain', '--ignored'])).toBe('');
    await closeWorkspace(second);
  });

  it('keeps at most N parked worktrees per repository', async () => {
    const jobs = await Promise.all([open('a'), open('b'), open('c')]);
    await Promise.all(jobs.map((ws) => closeWorkspace(ws)));
    expect((await pool()).length).toBeLessThanOrEqual(1);
    const listed = git(jobs[0].mirrorDir, ['worktree', 'list', '--porcelain']);
    expect(listed.split('\n').filter((l) => l.startsWith('worktree ')).length).toBe(
      1 + (await pool()).length,
    );
  });

  it('never follows a .git link that repository code rewrote', async () => {
    const ws = await open('t1', 0);
    // A "validation command" plants a fake git directory whose config would run code.
    const fake = join(ws.worktree, 'evil-gitdir');
    await mkdir(fake, { recursive: true });
    git(fake, ['init', '-q', '--bare', '.']);
    const marker = join(root, 'pwned');
    git(fake, ['config', 'core.fsmonitor', `touch ${marker}; false`]);
    await writeFile(join(ws.worktree, '.git'), `gitdir: ${fake}\n`);

    await prepareBranch(ws, { name: 'autofix/fix/2-y', issue: 2, identity: DEFAULT_BOT_IDENTITY });
    await writeFile(join(ws.worktree, 'src/app.js'), 'export const answer = 42;\n');
    const commit = await commitChanges(ws, {
      message: 'fix(app): commit despite a tampered git link\n\nFixes #2\n',
      paths: ['src/app.js'],
    });
    expect(existsSync(marker)).toBe(false);
    expect(git(ws.mirrorDir, ['cat-file', '-t', commit.sha])).toBe('commit');
    await closeWorkspace(ws);
  });
});
