/**
 * The setup cache's store over real worktrees (git/workspace.ts) and real files: the bound on
 * disk (least recently used first, never an entry a job holds), two jobs filling one key at once.
 */
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { basicSandboxPolicy } from '../../../src/exec/sandbox-policy.js';
import { listEntries, takeLease } from '../../../src/exec/setup-cache/evict.js';
import { cacheRoot, entryDir } from '../../../src/exec/setup-cache/layout.js';
import { openSetupCache, type SetupCache } from '../../../src/exec/setup-cache/setup-cache.js';
import { closeWorkspace, openWorkspace, type Workspace } from '../../../src/git/workspace.js';
import { createRepo, type TestRepo } from '../../helpers/repo-builder.js';

describe('setup cache store', () => {
  let repo: TestRepo;
  let workdir: string;
  let remoteUrl: string;
  const open: Workspace[] = [];
  let jobs = 0;

  beforeEach(() => {
    repo = createRepo({
      prefix: 'autofix-setup-store-',
      name: 'repo',
      files: { '.gitignore': 'node_modules/\n', 'package-lock.json': '{}' },
    });
    remoteUrl = repo.bare({ origin: true }).url;
    workdir = join(repo.root, 'work');
  });
  afterEach(async () => {
    for (const ws of open.splice(0)) await closeWorkspace(ws);
    repo.cleanup();
  });

  /** A job whose "setup" (the test itself) left `bytes` bytes in node_modules. */
  const installed = async (bytes: number): Promise<Workspace> => {
    const ws = await openWorkspace({
      workdir,
      repo: 'acme/demo',
      remoteUrl,
      baseBranch: 'main',
      jobId: `job-${++jobs}`,
    });
    open.push(ws);
    mkdirSync(join(ws.worktree, 'node_modules/dep'), { recursive: true });
    writeFileSync(join(ws.worktree, 'node_modules/dep/index.js'), 'x'.repeat(bytes));
    return ws;
  };
  const cacheOf = (ws: Workspace, setup: string, maxBytes = 1 << 30): SetupCache =>
    openSetupCache({
      workdir,
      repo: 'acme/demo',
      worktree: ws.worktree,
      gitDir: ws.gitDir,
      jobDir: ws.jobDir,
      homeDir: ws.homeDir,
      setup: [setup],
      sandbox: basicSandboxPolicy('bwrap'),
      maxBytes,
    });
  const root = (): string => cacheRoot(workdir, 'acme/demo');
  /** Marks an entry last used `secondsAgo` ago. */
  const usedAgo = (key: string, secondsAgo: number): void => {
    const t = new Date(Date.now() - secondsAgo * 1000);
    utimesSync(join(entryDir(root(), key), 'used'), t, t);
  };

  it('stays under its bound, least recently used first, never an entry in use', async () => {
    const a = await cacheOf(await installed(400), 'setup a').store();
    const b = await cacheOf(await installed(400), 'setup b').store();
    usedAgo(a.key, 300);
    usedAgo(b.key, 200);
    const releaseA = await takeLease(root(), a.key);
    // c does not fit with both: b (not a, which a job holds) goes.
    const c = await cacheOf(await installed(400), 'setup c', 1000).store();
    expect(c.status).toBe('stored');
    expect((await listEntries(root())).map((e) => e.key).sort()).toEqual([a.key, c.key].sort());
    await releaseA();
    const d = await cacheOf(await installed(400), 'setup d', 1000).store();
    expect((await listEntries(root())).map((e) => e.key).sort()).toEqual([c.key, d.key].sort());
  });

  it('a lease of a process that is gone does not keep an entry', async () => {
    const a = await cacheOf(await installed(400), 'setup a').store();
    usedAgo(a.key, 300);
    mkdirSync(join(root(), 'leases', a.key), { recursive: true });
    // No process has pid 2^22 + 1 (above the kernel's pid_max limit).
    writeFileSync(join(root(), 'leases', a.key, `${2 ** 22 + 1}-0`), '');
    await cacheOf(await installed(700), 'setup b', 1000).store();
    expect((await listEntries(root())).map((e) => e.key)).not.toContain(a.key);
  });

  it('is never shared across repositories', async () => {
    const ws = await installed(100);
    expect((await cacheOf(ws, 'npm ci').store()).status).toBe('stored');
    const other = openSetupCache({
      workdir,
      repo: 'acme/other',
      worktree: ws.worktree,
      gitDir: ws.gitDir,
      jobDir: ws.jobDir,
      homeDir: ws.homeDir,
      setup: ['npm ci'],
      sandbox: basicSandboxPolicy('bwrap'),
      maxBytes: 1 << 30,
    });
    // The same lockfile, setup and toolchains: still another repository's folder, so a miss.
    expect(await other.restore()).toMatchObject({ status: 'miss', reason: 'no entry' });
  });

  it('two jobs filling one key at once: one entry, the other copy discarded', async () => {
    const [x, y] = [await installed(100), await installed(100)];
    const [one, two] = await Promise.all([
      cacheOf(x, 'npm ci').store(),
      cacheOf(y, 'npm ci').store(),
    ]);
    expect(one.key).toBe(two.key);
    expect([one.status, two.status]).toEqual(['stored', 'stored']);
    expect([one.reason, two.reason].filter(Boolean)).toEqual([
      'another job stored the same key first',
    ]);
    expect((await listEntries(root())).length).toBe(1);
    expect(readdirSync(join(root(), 'building'))).toEqual([]);
    // Whichever won, a third job restores it whole.
    const z = await openWorkspace({
      workdir,
      repo: 'acme/demo',
      remoteUrl,
      baseBranch: 'main',
      jobId: `job-${++jobs}`,
    });
    open.push(z);
    expect((await cacheOf(z, 'npm ci').restore()).status).toBe('hit');
    expect(existsSync(join(z.worktree, 'node_modules/dep/index.js'))).toBe(true);
  });
});
