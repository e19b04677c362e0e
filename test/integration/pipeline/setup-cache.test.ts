/**
 * The setup cache through the one seam (`createCodeWorkspace(...).setup`): real git worktrees of
 * a bare remote, real setup commands in the real sandbox (bwrap, as root: commands run as 65534),
 * a real `python3 -m venv`. Issue #38: a run installs once, a later run restores in well under a
 * second, the key follows the lockfile, a poisoned entry never outlives its key.
 */
import { jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { lstatSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_REPO_CONFIG, type RepoConfig } from '../../../src/config/repo-config.js';
import { basicSandboxPolicy, type SandboxPolicy } from '../../../src/exec/sandbox-policy.js';
import { cacheRoot } from '../../../src/exec/setup-cache/layout.js';
import { listEntries } from '../../../src/exec/setup-cache/evict.js';
import { createCodeWorkspace } from '../../../src/pipeline/code/code-workspace.js';
import { closeWorkspace, openWorkspace, type Workspace } from '../../../src/git/workspace.js';
import { createRepo, executable, type TestRepo } from '../../helpers/repo-builder.js';
import { underLoad } from '../../helpers/deadlines.js';

jest.setTimeout(underLoad(120_000));

const ROOT = process.getuid?.() === 0;

/** An offline `npm ci`: node_modules from the lockfile's version, with a bin that runs. */
const SETUP_SH = `set -e
v=$(cat package-lock.json)
mkdir -p node_modules/dep/lib node_modules/.bin
printf 'module.exports = "%s";\\n' "$v" > node_modules/dep/index.js
printf '#!/bin/sh\\necho dep-bin\\n' > node_modules/dep/lib/cli.sh
chmod +x node_modules/dep/lib/cli.sh
ln -s ../dep/lib/cli.sh node_modules/.bin/dep
`;

const FILES = {
  '.gitignore': 'node_modules/\n',
  'package-lock.json': 'v1',
  'setup.sh': SETUP_SH,
  'check.sh': executable('set -e\ngrep -q "v" node_modules/dep/index.js\nnode_modules/.bin/dep\n'),
};

describe('setup cache', () => {
  let repo: TestRepo;
  let workdir: string;
  let remoteUrl: string;
  const open: Workspace[] = [];
  let jobs = 0;

  beforeEach(() => {
    repo = createRepo({ prefix: 'autofix-setup-cache-', name: 'repo', files: FILES });
    remoteUrl = repo.bare({ origin: true }).url;
    workdir = join(repo.root, 'work');
  });
  afterEach(async () => {
    for (const ws of open.splice(0)) await closeWorkspace(ws);
    repo.cleanup();
  });

  const job = async (): Promise<Workspace> => {
    const ws = await openWorkspace({
      workdir,
      repo: 'acme/demo',
      remoteUrl,
      baseBranch: 'main',
      jobId: `job-${++jobs}`,
    });
    open.push(ws);
    return ws;
  };
  const config = (extra: Partial<RepoConfig> = {}): RepoConfig => ({
    ...DEFAULT_REPO_CONFIG,
    setup: ['sh setup.sh'],
    validate: ['sh check.sh'],
    ...extra,
  });
  const sandbox = (): SandboxPolicy => basicSandboxPolicy('bwrap');
  const setupIn = async (ws: Workspace, cfg = config(), policy = sandbox()) =>
    createCodeWorkspace(ws, cfg, { sandbox: policy }).setup({});

  it('installs once: the second job restores by hard links, read-only to the sandbox', async () => {
    const first = await job();
    const cold = await setupIn(first);
    expect(cold?.passed).toBe(true);
    expect(cold?.setupCache).toMatchObject({ status: 'stored', files: 2 });
    expect(cold?.results.map((r) => r.command)).toEqual(['sh setup.sh']);

    const second = await job();
    const warm = await setupIn(second);
    expect(warm?.setupCache).toMatchObject({ status: 'hit', key: cold?.setupCache?.key });
    // Whole trees linked at once, not the file-by-file fallback.
    expect(warm?.setupCache?.reason).toBeUndefined();
    expect(warm?.results[0]?.command).toMatch(/^setup restored from cache \(key \w{12}, 2 files/);
    const file = join(second.worktree, 'node_modules/dep/index.js');
    expect(readFileSync(file, 'utf8')).toBe('module.exports = "v1";\n');
    expect(lstatSync(join(second.worktree, 'node_modules/.bin/dep')).isSymbolicLink()).toBe(true);
    if (ROOT) {
      // One inode shared with the cache (and the first job), owned by neither root nor 65534.
      expect(statSync(file).nlink).toBeGreaterThanOrEqual(2);
      expect(statSync(file).uid).toBe(65533);
      expect(statSync(file).mode & 0o222).toBe(0);
    }
    // What was restored works in the sandbox.
    const run = await createCodeWorkspace(second, config(), { sandbox: sandbox() }).validate({
      skipSetup: true,
    });
    expect(run.results.map((r) => [r.exit_code, r.stdout.trim()])).toEqual([[0, 'dep-bin']]);
  });

  it('sets up a worktree once: a later stage in the same job runs nothing and restores nothing', async () => {
    const ws = await job();
    const first = await setupIn(ws);
    expect(first?.results.map((r) => r.command)).toEqual(['sh setup.sh']);
    const marker = join(ws.worktree, 'node_modules/dep/index.js');
    const inode = statSync(marker).ino;
    const again = await setupIn(ws);
    expect(again?.passed).toBe(true);
    expect(again?.results.map((r) => r.command)).toEqual([
      expect.stringMatching(/^setup already done in this worktree \(key \w{12}\)/),
    ]);
    // Nothing was restored over it: the same file, not a new link.
    expect(statSync(marker).ino).toBe(inode);
    // Another lockfile in the same job (a change to it): set up again.
    writeFileSync(join(ws.worktree, 'package-lock.json'), 'v3');
    execFileSync(
      'git',
      [
        '--git-dir',
        ws.gitDir,
        '--work-tree',
        ws.worktree,
        '-c',
        'user.name=t',
        '-c',
        'user.email=t@example.com',
        'commit',
        '--quiet',
        '--no-verify',
        '-am',
        'bump',
      ],
      { cwd: ws.worktree },
    );
    const changed = await setupIn(ws);
    expect(changed?.results.map((r) => r.command)).toEqual(['sh setup.sh']);
  });

  it('misses when the lockfile changes, and keeps both keys', async () => {
    const cold = await setupIn(await job());
    repo.commit('bump', { 'package-lock.json': 'v2' });
    repo.git('push', '--quiet', 'origin', 'main');
    const changed = await setupIn(await job());
    expect(changed?.setupCache?.status).toBe('stored');
    expect(changed?.setupCache?.key).not.toBe(cold?.setupCache?.key);
    expect(readFileSync(join(open[1]!.worktree, 'node_modules/dep/index.js'), 'utf8')).toContain(
      'v2',
    );
    expect((await listEntries(cacheRoot(workdir, 'acme/demo'))).length).toBe(2);
  });

  it('a validate command cannot rewrite a restored file in place for the next run', async () => {
    await setupIn(await job());
    const victim = await job();
    expect((await setupIn(victim))?.setupCache?.status).toBe('hit');
    const attack = [
      // Every way in place: write, append, truncate, chmod then write, a hard link elsewhere.
      "sh -c 'echo evil > node_modules/dep/index.js; true'",
      "sh -c 'echo evil >> node_modules/dep/index.js; true'",
      "sh -c 'truncate -s 0 node_modules/dep/index.js; true'",
      "sh -c 'chmod 666 node_modules/dep/index.js && echo evil > node_modules/dep/index.js; true'",
      // Replacing the file is allowed (the directories are the job's own): a new inode.
      "sh -c 'rm -f node_modules/dep/lib/cli.sh && echo evil > node_modules/dep/lib/cli.sh'",
    ];
    const run = await createCodeWorkspace(victim, config({ validate: attack }), {
      sandbox: sandbox(),
    }).validate({ skipSetup: true });
    expect(run.results.every((r) => r.exit_code === 0)).toBe(true);
    if (ROOT) {
      // The hand-over before each command and the take-back after it left the shared inode alone.
      const shared = statSync(join(victim.worktree, 'node_modules/dep/index.js'));
      expect([shared.uid, shared.mode & 0o222]).toEqual([65533, 0]);
    }
    expect(readFileSync(join(victim.worktree, 'node_modules/dep/lib/cli.sh'), 'utf8')).toBe(
      'evil\n',
    );

    const next = await job();
    const restored = await setupIn(next);
    expect(restored?.setupCache?.status).toBe('hit');
    expect(readFileSync(join(next.worktree, 'node_modules/dep/index.js'), 'utf8')).toBe(
      'module.exports = "v1";\n',
    );
    expect(readFileSync(join(next.worktree, 'node_modules/dep/lib/cli.sh'), 'utf8')).toContain(
      'dep-bin',
    );
  });

  it('an entry changed in place is dropped when found, and setup runs again', async () => {
    const first = await job();
    await setupIn(first);
    // Root (outside the sandbox) writing through the shared inode: the manifest sees it.
    writeFileSync(join(first.worktree, 'node_modules/dep/index.js'), 'module.exports = "bad";\n');
    const next = await job();
    const again = await setupIn(next);
    expect(again?.results.map((r) => r.command)).toEqual(['sh setup.sh']);
    expect(again?.setupCache?.status).toBe('stored');
    expect(readFileSync(join(next.worktree, 'node_modules/dep/index.js'), 'utf8')).toBe(
      'module.exports = "v1";\n',
    );
  });

  it('a setup that fails drops its key: a later job installs again', async () => {
    const cfg = config({ setup: ['sh setup.sh', 'sh -c "test ! -e FAIL"'] });
    const stored = (await setupIn(await job(), cfg))?.setupCache;
    expect(stored?.status).toBe('stored');
    // The same key, but an earlier command of this job made node_modules (so the restore is
    // refused) and left FAIL (untracked: not in the key), so its setup fails.
    const second = await job();
    writeFileSync(join(second.worktree, 'FAIL'), '');
    await createCodeWorkspace(second, config({ setup: ['sh setup.sh'] }), {
      sandbox: basicSandboxPolicy('bwrap', { setupCacheMaxMb: 0 }),
    }).setup({});
    const failed = await setupIn(second, cfg);
    expect(failed?.passed).toBe(false);
    expect(failed?.setupCache?.reason).toBe('the worktree already holds what setup makes');
    const keys = (await listEntries(cacheRoot(workdir, 'acme/demo'))).map((e) => e.key);
    expect(keys).not.toContain(stored?.key);
    // …so the next job runs setup again.
    expect((await setupIn(await job(), cfg))?.setupCache?.status).toBe('stored');
  });

  it('a build output is reused for the same sources only', async () => {
    repo.commit('build', { '.gitignore': 'node_modules/\ndist/\n', 'src.txt': 'one\n' });
    repo.git('push', '--quiet', 'origin', 'main');
    const cfg = config({ setup: ['sh setup.sh', 'sh -c "mkdir -p dist && cp src.txt dist/out"'] });
    const builder = await job();
    const cold = await setupIn(builder, cfg);
    expect(cold?.setupCache?.status).toBe('stored');
    // Its entry is keyed by the tree too, and the same job still sets up once (an `npm install`
    // again would meet the cache's read-only files).
    expect((await setupIn(builder, cfg))?.results[0]?.command).toMatch(/already done/);
    expect((await setupIn(await job(), cfg))?.setupCache).toMatchObject({
      status: 'hit',
      key: cold?.setupCache?.key,
    });
    // Sources changed, lockfile not: the build is not reused.
    repo.commit('edit', { 'src.txt': 'two\n' });
    repo.git('push', '--quiet', 'origin', 'main');
    const next = await job();
    const rebuilt = await setupIn(next, cfg);
    expect(rebuilt?.setupCache?.status).toBe('stored');
    expect(readFileSync(join(next.worktree, 'dist/out'), 'utf8')).toBe('two\n');
  });

  it("a release that changes only package.json's version hits; a lockfile the install wrote is a dependency", async () => {
    repo.commit('manifest', {
      'package.json': JSON.stringify({
        name: 'demo',
        version: '1.0.0',
        devDependencies: { dep: '1' },
      }),
    });
    repo.git('rm', '--quiet', 'package-lock.json');
    repo.commit('no lockfile', {});
    repo.git('push', '--quiet', 'origin', 'main');
    // `npm install` without a committed lockfile: node_modules and a package-lock.json.
    const cfg = config({
      setup: [
        'sh -c "mkdir -p node_modules/dep && cp package.json node_modules/dep/ && echo lock > package-lock.json"',
      ],
    });
    const first = await job();
    const cold = await setupIn(first, cfg);
    expect(cold?.setupCache).toMatchObject({ status: 'stored' });
    // The same job sets up once, though what it stored is keyed as it was asked.
    expect((await setupIn(first, cfg))?.results[0]?.command).toMatch(/already done/);
    repo.commit('release', {
      'package.json': JSON.stringify({
        name: 'demo',
        version: '1.0.1',
        devDependencies: { dep: '1' },
      }),
      'src.txt': 'changed\n',
    });
    repo.git('push', '--quiet', 'origin', 'main');
    expect((await setupIn(await job(), cfg))?.setupCache).toMatchObject({
      status: 'hit',
      key: cold?.setupCache?.key,
    });
    repo.commit('new dependency', {
      'package.json': JSON.stringify({
        name: 'demo',
        version: '1.0.1',
        devDependencies: { dep: '2' },
      }),
    });
    repo.git('push', '--quiet', 'origin', 'main');
    expect((await setupIn(await job(), cfg))?.setupCache?.status).toBe('stored');
  });

  it('a tracked lockfile setup rewrote comes back with a hit; a deleted tracked file is not cached', async () => {
    // `npm install` with a committed lockfile rewrites it.
    const cfg = config({ setup: ['sh setup.sh', 'sh -c "echo rewritten > package-lock.json"'] });
    const cold = await setupIn(await job(), cfg);
    expect(cold?.setupCache).toMatchObject({ status: 'stored' });
    const second = await job();
    expect((await setupIn(second, cfg))?.setupCache).toMatchObject({
      status: 'hit',
      key: cold?.setupCache?.key,
    });
    const lock = join(second.worktree, 'package-lock.json');
    expect(readFileSync(lock, 'utf8')).toBe('rewritten\n');
    // The job's own file, not a cached inode: writable, not shared.
    expect(statSync(lock).nlink).toBe(1);
    expect(statSync(lock).uid).not.toBe(65533);

    const gone = config({ setup: ['sh setup.sh', 'rm check.sh'] });
    const run = await setupIn(await job(), gone);
    expect(run?.setupCache).toMatchObject({ status: 'not-stored' });
    expect(run?.setupCache?.reason).toContain(
      'setup deleted, renamed or added tracked files (check.sh)',
    );
  });

  it('a tracked file setup turned into a FIFO or a huge file is not cached, and nothing blocks on it', async () => {
    const fifo = config({ setup: ['sh setup.sh', 'sh -c "rm check.sh && mkfifo check.sh"'] });
    const a = await setupIn(await job(), fifo);
    expect(a?.setupCache).toMatchObject({ status: 'not-stored' });
    expect(a?.setupCache?.reason).toContain('check.sh');
    const huge = config({ setup: ['sh setup.sh', 'truncate -s 100M check.sh'] });
    const b = await setupIn(await job(), huge);
    expect(b?.setupCache).toMatchObject({ status: 'not-stored' });
    expect(b?.setupCache?.reason).toContain('too large (check.sh)');
  });

  it('a file linked elsewhere is copied into the cache, never taken over; special files are not cached', async () => {
    // A package store's inode (pnpm links its store into node_modules): both names are setup's,
    // but the inode is not this worktree's alone.
    const shared = config({
      setup: [
        'sh setup.sh',
        'sh -c "echo store > node_modules/a.js && ln node_modules/a.js node_modules/b.js"',
      ],
    });
    const first = await job();
    expect((await setupIn(first, shared))?.setupCache?.status).toBe('stored');
    const a = statSync(join(first.worktree, 'node_modules/a.js'));
    expect(a.nlink).toBe(2);
    expect(a.uid).not.toBe(65533);
    expect(a.mode & 0o200).toBe(0o200);
    if (ROOT) expect(statSync(join(first.worktree, 'node_modules/dep/index.js')).uid).toBe(65533);
    const second = await job();
    expect((await setupIn(second, shared))?.setupCache?.status).toBe('hit');
    expect(readFileSync(join(second.worktree, 'node_modules/b.js'), 'utf8')).toBe('store\n');

    const fifo = config({ setup: ['sh setup.sh', 'mkfifo node_modules/dep/pipe'] });
    const run = await setupIn(await job(), fifo);
    expect(run?.setupCache).toMatchObject({ status: 'not-stored' });
    expect(run?.setupCache?.reason).toBe('setup made special files (node_modules/dep/pipe)');
  });

  it('a product that is a link is kept as a link, never searched through', async () => {
    // Searching `/` (and `/proc`) for the job's path would never end.
    repo.commit('link', { '.gitignore': 'node_modules/\nrootlink\n' });
    repo.git('push', '--quiet', 'origin', 'main');
    const linked = config({ setup: ['sh setup.sh', 'ln -s / rootlink'] });
    expect((await setupIn(await job(), linked))?.setupCache?.status).toBe('stored');
    const second = await job();
    expect((await setupIn(second, linked))?.setupCache?.status).toBe('hit');
    expect(lstatSync(join(second.worktree, 'rootlink')).isSymbolicLink()).toBe(true);
  });

  it('without a sandbox (the operator chose none) it restores copies', async () => {
    const none = basicSandboxPolicy('none');
    await setupIn(await job(), config(), none);
    const second = await job();
    const warm = await setupIn(second, config(), none);
    expect(warm?.setupCache).toMatchObject({ status: 'hit', mode: 'copy' });
    expect(statSync(join(second.worktree, 'node_modules/dep/index.js')).nlink).toBe(1);
  });

  it("a venv made by setup works at another job's path, pointing at that job only", async () => {
    repo.commit('python', {
      '.gitignore': 'node_modules/\n.venv/\n*.egg-info/\n__pycache__/\n',
      'demo/__init__.py': 'def main():\n    print("demo from", __file__)\n',
      'setup.py':
        'from setuptools import setup\n' +
        'setup(name="demo", version="0.1", packages=["demo"],\n' +
        '      entry_points={"console_scripts": ["democli=demo:main"]})\n',
    });
    repo.git('push', '--quiet', 'origin', 'main');
    const cfg = config({
      setup: ['python3 -m venv .venv', '.venv/bin/python setup.py -q develop'],
      validate: ['.venv/bin/democli'],
    });
    const first = await job();
    const cold = await setupIn(first, cfg);
    expect(cold?.passed).toBe(true);
    expect(cold?.setupCache?.status).toBe('stored');

    const second = await job();
    const warm = await setupIn(second, cfg);
    expect(warm?.setupCache?.status).toBe('hit');
    const script = readFileSync(join(second.worktree, '.venv/bin/democli'), 'utf8');
    expect(script.split('\n')[0]).toBe(`#!${second.worktree}/.venv/bin/python`);
    // Rewritten as a fresh copy: the first job's file still names the first job.
    expect(readFileSync(join(first.worktree, '.venv/bin/democli'), 'utf8')).toContain(
      first.worktree,
    );
    const run = await createCodeWorkspace(second, cfg, { sandbox: sandbox() }).validate({
      skipSetup: true,
    });
    expect(run.results[0]?.exit_code).toBe(0);
    expect(run.results[0]?.stdout.trim()).toBe(`demo from ${second.worktree}/demo/__init__.py`);
    expect(run.results[0]?.stdout).not.toContain(first.jobDir);
  });
});
