/**
 * Closing a job off the critical path (issue #38): `closeWorkspaceLater` returns at once and the
 * worktree is parked or removed in the background. Real git, a local bare remote, and a real
 * child process killed in the middle of its close.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  closeWorkspace,
  closeWorkspaceLater,
  openWorkspace,
  workspacesClosed,
} from '../../../src/git/workspace.js';
import { closesUnderWay } from '../../../src/git/pending-closes.js';
import { REPO_ROOT } from '../../helpers/cli.js';
import { waitFor } from '../../helpers/wait-for.js';
import { makeRemote, removeDir, tempDir, type Remote } from './helpers.js';

describe('closing a workspace in the background', () => {
  let root: string;
  let remote: Remote;
  let workdir: string;

  beforeEach(async () => {
    root = await tempDir();
    remote = await makeRemote(root, {
      '.gitignore': 'node_modules/\n',
      'README.md': '# demo\n',
    });
    workdir = join(root, 'work');
  });
  afterEach(async () => {
    await workspacesClosed(60_000);
    await removeDir(root);
  });

  const open = (jobId: string) =>
    openWorkspace({
      workdir,
      repo: 'acme/demo',
      remoteUrl: remote.url,
      baseBranch: 'main',
      jobId,
      recycleWorktrees: 1,
    });
  const jobs = () => readdir(join(workdir, 'jobs')).catch(() => [] as string[]);

  /** What a stage leaves: installed dependencies (many files), an edit, a file of its own. */
  async function leaveWork(worktree: string): Promise<void> {
    for (let i = 0; i < 40; i++) {
      await mkdir(join(worktree, `node_modules/dep${i}`), { recursive: true });
      for (let j = 0; j < 25; j++)
        await writeFile(join(worktree, `node_modules/dep${i}/f${j}.js`), 'x');
    }
    await writeFile(join(worktree, 'README.md'), 'edited\n');
    await writeFile(join(worktree, 'notes.txt'), 'mine\n');
  }

  it('returns at once; the next job still gets the parked worktree; shutdown waits for it', async () => {
    const first = await open('run-a-code');
    await leaveWork(first.worktree);
    closeWorkspaceLater(first);
    expect(closesUnderWay()).toBe(1);
    // The next stage opens at once: it waits for the park, not for the removal, and is warm.
    const second = await open('run-a-pr');
    expect(second.gitDir).toBe(first.gitDir);
    expect(existsSync(join(second.worktree, 'node_modules'))).toBe(false);
    expect(existsSync(join(second.worktree, 'notes.txt'))).toBe(false);
    closeWorkspaceLater(second);
    expect(await workspacesClosed(60_000)).toBe(true);
    expect(closesUnderWay()).toBe(0);
    expect(await jobs()).toEqual([]);
  });

  it('a retry of the same job waits for its earlier attempt’s folder to be gone', async () => {
    const attempt = await open('run-b-code');
    await leaveWork(attempt.worktree);
    closeWorkspaceLater(attempt);
    const retry = await open('run-b-code');
    expect(existsSync(join(retry.worktree, 'README.md'))).toBe(true);
    expect(existsSync(join(retry.worktree, 'notes.txt'))).toBe(false);
    await closeWorkspace(retry);
    expect(await jobs()).toEqual([]);
  });

  it('a process killed in the middle of a background close leaves nothing a later job trips on', async () => {
    // A worker that opens a job, leaves work, starts the close, says so, and is killed.
    const script = `
      import { mkdir, writeFile } from 'node:fs/promises';
      import { join } from 'node:path';
      import { openWorkspace, closeWorkspaceLater } from './dist/src/git/workspace.js';
      const ws = await openWorkspace(${JSON.stringify({
        workdir,
        repo: 'acme/demo',
        remoteUrl: remote.url,
        baseBranch: 'main',
        jobId: 'run-c-code',
        recycleWorktrees: 1,
      })});
      for (let i = 0; i < 200; i++) {
        await mkdir(join(ws.worktree, 'node_modules', 'd' + i), { recursive: true });
        for (let j = 0; j < 20; j++) await writeFile(join(ws.worktree, 'node_modules', 'd' + i, 'f' + j), 'x');
      }
      closeWorkspaceLater(ws);
      process.stdout.write('closing\\n');
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await waitFor(() => out.includes('closing') || undefined, 60_000, 'the close to start');
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));

    // The next job on the same repository works, whatever state the close was in.
    const next = await open('run-d-code');
    expect(existsSync(join(next.worktree, 'README.md'))).toBe(true);
    expect(existsSync(join(next.worktree, 'node_modules'))).toBe(false);
    // The dead job's folder was swept when this one opened.
    expect((await jobs()).filter((j) => j.startsWith('run-c-code'))).toEqual([]);
    await closeWorkspace(next);
    const after = await open('run-e-code');
    expect(existsSync(join(after.worktree, 'README.md'))).toBe(true);
    await closeWorkspace(after);
    expect(await jobs()).toEqual([]);
  });
});
