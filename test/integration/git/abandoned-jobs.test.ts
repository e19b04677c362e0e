/**
 * A worker SIGKILLed mid-job leaves its job folder and registered worktree; its retry runs on
 * another worker, so nothing would come back for them. The next workspace opened on this host
 * removes the folders whose owner process is gone, and only those.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sweepAbandonedJobs } from '../../../src/git/abandoned-jobs.js';
import { closeWorkspace, openWorkspace, type Workspace } from '../../../src/git/workspace.js';
import { git, makeRemote, removeDir, tempDir, type Remote } from './helpers.js';

/** The pid and start time of a process that has exited. */
function deadProcess(): { pid: number; started: string } {
  const child = spawnSync('sh', ['-c', 'echo $$; cut -d" " -f22 /proc/$$/stat'], {
    encoding: 'utf8',
  });
  const [pid = '', started = ''] = child.stdout.trim().split('\n');
  return { pid: Number(pid), started };
}

describe('job folders of dead processes', () => {
  let root: string;
  let remote: Remote;
  const open: Workspace[] = [];
  beforeEach(async () => {
    root = await tempDir();
    remote = await makeRemote(root);
  });
  afterEach(async () => {
    for (const ws of open.splice(0)) await closeWorkspace(ws).catch(() => undefined);
    await removeDir(root);
  });

  const workspace = async (jobId: string): Promise<Workspace> => {
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
  const worktrees = (ws: Workspace): string =>
    git(ws.mirrorDir, ['worktree', 'list', '--porcelain']);

  it('are removed with their worktree when the next workspace opens; live ones stay', async () => {
    const dead = await workspace('killed-job');
    const live = await workspace('running-job');
    const owner = join(dead.jobDir, 'owner.json');
    const record = JSON.parse(readFileSync(owner, 'utf8')) as Record<string, unknown>;
    expect(record).toMatchObject({ pid: process.pid, mirror: dead.mirrorDir });
    // The process that opened it died (a reused pid has another start time).
    writeFileSync(owner, JSON.stringify({ ...record, ...deadProcess() }));
    open.splice(open.indexOf(dead), 1);

    const next = await workspace('next-job');
    expect(existsSync(dead.jobDir)).toBe(false);
    expect(worktrees(next)).not.toContain(dead.worktree);
    expect(existsSync(live.jobDir)).toBe(true);
    expect(worktrees(next)).toContain(live.worktree);
  });

  it('leaves folders of another host, and refuses a mirror outside the workdir', async () => {
    const ws = await workspace('elsewhere');
    const owner = join(ws.jobDir, 'owner.json');
    const record = JSON.parse(readFileSync(owner, 'utf8')) as Record<string, unknown>;
    writeFileSync(owner, JSON.stringify({ ...record, ...deadProcess(), host: 'another-host' }));
    expect(await sweepAbandonedJobs(ws.workdir)).toEqual([]);
    writeFileSync(owner, JSON.stringify({ ...record, ...deadProcess(), mirror: root }));
    expect(await sweepAbandonedJobs(ws.workdir)).toEqual([]);
    expect(existsSync(ws.jobDir)).toBe(true);
  });

  it('frees a half-parked pool slot of a dead worker at once, and leaves one of a live worker', async () => {
    const first = await workspace('first');
    const pool = join(first.workdir, 'pool', 'acme', 'demo');
    const slot = (name: string, owner: Record<string, unknown>): string => {
      const dir = join(pool, name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'gitdir'), '/nowhere\n');
      writeFileSync(join(dir, 'owner.json'), JSON.stringify(owner));
      return dir;
    };
    const record = JSON.parse(readFileSync(join(first.jobDir, 'owner.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const deadSlot = slot('slot-7', { ...record, ...deadProcess(), mirror: '' });
    const liveSlot = slot('slot-8', { ...record, mirror: '' });
    await workspace('second');
    expect(existsSync(deadSlot)).toBe(false);
    expect(existsSync(liveSlot)).toBe(true);
  });
});
