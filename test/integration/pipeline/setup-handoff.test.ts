/**
 * Setup once per run across the app's stages (issue #38): the stage that set up hands what it
 * installed to the run's next stage that sets up, by renaming, instead of a second restore from
 * the cache. Real git worktrees of a bare remote, real setup commands in the real sandbox (bwrap;
 * as root the commands run as 65534), through the one seam (`createCodeWorkspace(...).setup`).
 */
import { jest } from '@jest/globals';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_REPO_CONFIG, type RepoConfig } from '../../../src/config/repo-config.js';
import { basicSandboxPolicy } from '../../../src/exec/sandbox-policy.js';
import {
  discardHandOff,
  handOffRoot,
  handOffSetup,
  STALE_HANDOFF_MS,
  sweepStale,
  takeHandOff,
} from '../../../src/exec/setup-cache/handoff.js';
import { createCodeWorkspace } from '../../../src/pipeline/code/code-workspace.js';
import { closeWorkspace, openWorkspace, type Workspace } from '../../../src/git/workspace.js';
import { createRepo, executable, type TestRepo } from '../../helpers/repo-builder.js';
import { underLoad } from '../../helpers/deadlines.js';

jest.setTimeout(underLoad(120_000));

/**
 * An offline install: a package, a bin link, and two things that embed the job's own path (a
 * file naming the worktree, an absolute link), as a venv or node-gyp would, and a rewritten lockfile.
 */
const SETUP_SH = `set -e
v=$(cat package-lock.json)
mkdir -p node_modules/dep/lib node_modules/.bin
printf 'module.exports = "%s";\\n' "$v" > node_modules/dep/index.js
printf '#!/bin/sh\\necho dep-bin\\n' > node_modules/dep/lib/cli.sh
chmod +x node_modules/dep/lib/cli.sh
ln -s ../dep/lib/cli.sh node_modules/.bin/dep
pwd > node_modules/dep/where.txt
ln -s "$PWD/node_modules/dep/lib/cli.sh" node_modules/.bin/abs
echo rewritten > package-lock.json
`;

const FILES = {
  '.gitignore': 'node_modules/\n',
  'package-lock.json': 'v1',
  'setup.sh': SETUP_SH,
  'check.sh': executable(
    'set -e\nnode_modules/.bin/dep\nnode_modules/.bin/abs\ngrep -qx "$PWD" node_modules/dep/where.txt\n',
  ),
};

describe('setup handed on between the stages of one run', () => {
  let repo: TestRepo;
  let workdir: string;
  let remoteUrl: string;
  const open: Workspace[] = [];

  beforeEach(() => {
    repo = createRepo({ prefix: 'autofix-setup-handoff-', name: 'repo', files: FILES });
    remoteUrl = repo.bare({ origin: true }).url;
    workdir = join(repo.root, 'work');
  });
  afterEach(async () => {
    for (const ws of open.splice(0)) await closeWorkspace(ws);
    repo.cleanup();
  });

  const job = async (jobId: string): Promise<Workspace> => {
    const ws = await openWorkspace({
      workdir,
      repo: 'acme/demo',
      remoteUrl,
      baseBranch: 'main',
      jobId,
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
  const sandbox = () => basicSandboxPolicy('bwrap');
  const setupIn = async (ws: Workspace, cfg = config()) =>
    createCodeWorkspace(ws, cfg, { sandbox: sandbox() }).setup({});
  const validateIn = async (ws: Workspace, cfg = config()) =>
    createCodeWorkspace(ws, cfg, { sandbox: sandbox() }).validate({ skipSetup: true });

  it('the next stage takes the installed paths by renaming: no install, no restore, paths for its own job', async () => {
    const reproduce = await job('run1-reproduce');
    const cold = await setupIn(reproduce);
    expect(cold?.setupCache).toMatchObject({ status: 'stored' });
    const index = join(reproduce.worktree, 'node_modules/dep/index.js');
    const inode = statSync(index).ino;

    const handed = await handOffSetup(reproduce, 'run1-code');
    expect(handed).toMatchObject({ handed: true, key: cold?.setupCache?.key, paths: 2 });
    expect(existsSync(join(reproduce.worktree, 'node_modules'))).toBe(false);

    const code = await job('run1-code');
    const warm = await setupIn(code);
    expect(warm?.passed).toBe(true);
    expect(warm?.setupCache).toMatchObject({ status: 'handed', key: cold?.setupCache?.key });
    expect(warm?.results.map((r) => r.command)).toEqual([
      expect.stringMatching(
        /^setup handed on from an earlier stage of this run \(key \w{12}, 2 paths/,
      ),
    ]);
    // The same inode, moved: not a copy, not a new link.
    expect(statSync(join(code.worktree, 'node_modules/dep/index.js')).ino).toBe(inode);
    // The tracked file setup rewrote comes with it; what embeds a path names this job.
    expect(readFileSync(join(code.worktree, 'package-lock.json'), 'utf8')).toBe('rewritten\n');
    const where = readFileSync(join(code.worktree, 'node_modules/dep/where.txt'), 'utf8');
    expect(where.trim()).toBe(code.worktree);
    expect(readFileSyncLink(join(code.worktree, 'node_modules/.bin/abs'))).toBe(
      join(code.worktree, 'node_modules/dep/lib/cli.sh'),
    );
    const run = await validateIn(code);
    expect(run.results.map((r) => [r.exit_code, r.stdout.trim()])).toEqual([
      [0, 'dep-bin\ndep-bin'],
    ]);
    // Taken once: a second attempt finds nothing (it restores from the cache instead).
    expect(await takeHandOff(code, cold!.setupCache!.key)).toEqual({
      taken: false,
      reason: 'nothing handed on',
    });
  });

  it('another job (another run) never takes it, and it is not taken for another key', async () => {
    const reproduce = await job('run1-reproduce');
    await setupIn(reproduce);
    await handOffSetup(reproduce, 'run1-code');
    const other = await job('run2-code');
    expect((await setupIn(other))?.setupCache?.status).toBe('hit');
    expect(existsSync(join(handOffRoot(workdir, 'acme/demo'), 'run1-code'))).toBe(true);

    // The receiving stage works from another lockfile (a feedback branch): set up anew, and
    // the hand-off is gone.
    repo.commit('bump', { 'package-lock.json': 'v2' });
    repo.git('push', '--quiet', 'origin', 'main');
    const code = await job('run1-code');
    const fresh = await setupIn(code);
    expect(fresh?.setupCache?.status).toBe('stored');
    expect(fresh?.results.map((r) => r.command)).toEqual(['sh setup.sh']);
    expect(readFileSync(join(code.worktree, 'node_modules/dep/index.js'), 'utf8')).toContain('v2');
    expect(existsSync(join(handOffRoot(workdir, 'acme/demo'), 'run1-code'))).toBe(false);
  });

  it('a link a sandboxed command planted where a path is rewritten is never read through', async () => {
    const secret = join(repo.root, 'worker-secret');
    writeFileSync(secret, 'S3CRET-of-the-worker\n');
    const reproduce = await job('run1-reproduce');
    await setupIn(reproduce);
    // The reproduce stage's commands (repository code, in the sandbox) swap the file that embeds
    // the job's path for a link to a file of the worker's, and the absolute link for a FIFO.
    const hostile = config({
      validate: [
        `sh -c "rm node_modules/dep/where.txt && ln -s ${secret} node_modules/dep/where.txt"`,
        'sh -c "rm node_modules/.bin/abs && mkfifo node_modules/.bin/abs"',
      ],
    });
    const ran = await validateIn(reproduce, hostile);
    expect(ran.results.map((r) => r.exit_code)).toEqual([0, 0]);
    expect((await handOffSetup(reproduce, 'run1-code')).handed).toBe(true);

    const code = await job('run1-code');
    expect((await setupIn(code))?.setupCache?.status).toBe('handed');
    const where = join(code.worktree, 'node_modules/dep/where.txt');
    expect(lstatSync(where).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(code.worktree, 'node_modules/.bin/abs')).isFIFO()).toBe(true);
    // No file of the worktree holds the worker's secret (grep -r follows no link).
    const grep = spawnSync('grep', ['-rl', 'S3CRET', code.worktree], { encoding: 'utf8' });
    expect([grep.status, grep.stdout]).toEqual([1, '']);
  });

  it('a hand-off nobody takes is removed: discarded when the run ends, swept when stale', async () => {
    const reproduce = await job('run1-reproduce');
    await setupIn(reproduce);
    await handOffSetup(reproduce, 'run1-code');
    const root = handOffRoot(workdir, 'acme/demo');
    await discardHandOff(workdir, 'acme/demo', 'run1-code');
    expect(existsSync(join(root, 'run1-code'))).toBe(false);

    const second = await job('run2-reproduce');
    await setupIn(second);
    await handOffSetup(second, 'run2-code');
    await mkdir(join(root, 'run3-code.building-1-x'), { recursive: true });
    const old = (Date.now() - STALE_HANDOFF_MS - 60_000) / 1000;
    utimesSync(join(root, 'run3-code.building-1-x'), old, old);
    await sweepStale(root);
    expect(existsSync(join(root, 'run3-code.building-1-x'))).toBe(false);
    expect(existsSync(join(root, 'run2-code'))).toBe(true);
  });

  it('nothing is handed on from a job whose setup did not pass', async () => {
    const reproduce = await job('run1-reproduce');
    const failed = await setupIn(reproduce, config({ setup: ['sh -c "exit 3"'] }));
    expect(failed?.passed).toBe(false);
    expect(await handOffSetup(reproduce, 'run1-code')).toEqual({
      handed: false,
      reason: 'no setup passed in this job',
    });
  });
});

function readFileSyncLink(path: string): string {
  return execFileSync('readlink', [path], { encoding: 'utf8' }).trim();
}
