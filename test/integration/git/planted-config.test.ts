/**
 * Issue #11, item 3: repository code that escaped the sandbox wrote `core.fsmonitor` into the
 * mirror's config, and the bot's own git ran it outside the sandbox with the worker's secrets,
 * in that job and every later one. Each test plants what an attacker could, runs a job's real
 * git sequence (open → status → branch → commit → push → close), and checks that nothing planted
 * ran, that the job still worked, and that the mirror was restored — before the job's own commit
 * when the plant came during the job, before the next job when it came between jobs.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { prepareBranch } from '../../../src/git/branch.js';
import { commitChanges } from '../../../src/git/commit.js';
import { DEFAULT_BOT_IDENTITY } from '../../../src/git/identity.js';
import { pushBranch } from './helpers.js';
import { rollbackWorkspace } from '../../../src/git/rollback.js';
import { scrubMirror } from '../../../src/git/scrub-mirror.js';
import {
  assertCleanWorktree,
  closeWorkspace,
  openWorkspace,
  type Workspace,
} from '../../../src/git/workspace.js';
import { MIRROR_CONFIG } from '../../../src/git/write-mirror-config.js';
import type { Logger } from '../../../src/logger.js';
import {
  git,
  makeRemote,
  pushCommit,
  remoteSha,
  removeDir,
  tempDir,
  type Remote,
} from './helpers.js';
import { withGitOnPath } from './git-on-path.js';
import { captureLog, makeTrap, type Trap } from './trap.js';

/** Hooks our git would otherwise run: `--no-verify` only skips pre-commit and commit-msg. */
const HOOKS = [
  'post-checkout',
  'pre-commit',
  'commit-msg',
  'prepare-commit-msg',
  'post-commit',
  'reference-transaction',
  'post-index-change',
  'pre-push',
  'pre-auto-gc',
  'post-rewrite',
];

describe('planted git config and hooks', () => {
  let root: string;
  let remote: Remote;
  let trap: Trap;

  beforeEach(async () => {
    root = await tempDir();
    trap = await makeTrap(root);
  });
  afterEach(async () => {
    await removeDir(root);
  });

  const open = (jobId: string, logger?: Logger, recycleWorktrees = 0) =>
    openWorkspace({
      workdir: join(root, 'work'),
      repo: 'acme/demo',
      remoteUrl: remote.url,
      baseBranch: 'main',
      jobId,
      recycleWorktrees,
      ...(logger ? { logger } : {}),
    });

  /** The rest of a job after its workspace is open; returns the pushed commit. */
  const finishJob = async (ws: Workspace, issue: number, logger?: Logger) => {
    await assertCleanWorktree(ws, ws.base_commit);
    await prepareBranch(ws, {
      name: `autofix/fix/${issue}-answer`,
      issue,
      identity: DEFAULT_BOT_IDENTITY,
    });
    await writeFile(join(ws.worktree, 'src/app.js'), `export const answer = ${issue};\n`);
    const commit = await commitChanges(ws, {
      message: `fix(app): return ${issue} from app\n\nFixes #${issue}\n`,
      ...(logger ? { logger } : {}),
    });
    await pushBranch(ws, logger ? { logger } : {});
    await closeWorkspace(ws);
    return commit;
  };

  const setConfig = (file: string, key: string, value: string) =>
    git(root, ['config', '--file', file, key, value]);

  const warnedKeys = (log: ReturnType<typeof captureLog>) =>
    log.warnings().flatMap((w) => (w.unexpected_keys as string[] | undefined) ?? []);
  const repairedPaths = (log: ReturnType<typeof captureLog>) =>
    log.warnings().flatMap((w) => (w.repaired as string[] | undefined) ?? []);

  it("never runs a core.fsmonitor planted during a job in the mirror or the worktree git dir; the job's commit removes it", async () => {
    remote = await makeRemote(root);
    const ws = await open('job-1');
    const monitor = await trap.script('fsmonitor');
    const config = join(ws.mirrorDir, 'config');
    setConfig(config, 'core.fsmonitor', monitor);
    // The worktree's own config file is read only with this extension.
    setConfig(config, 'core.repositoryformatversion', '1');
    setConfig(config, 'extensions.worktreeConfig', 'true');
    setConfig(join(ws.gitDir, 'config.worktree'), 'core.fsmonitor', monitor);
    // With the extension, the shared `core.bare = true` would apply to the worktree too.
    setConfig(join(ws.gitDir, 'config.worktree'), 'core.bare', 'false');
    // The plant is live: a plain git in the worktree runs it (and may dislike its answer).
    try {
      git(ws.worktree, ['status', '--porcelain']);
    } catch {
      // what matters is that it ran
    }
    expect(await trap.runs()).toContain('fsmonitor');
    await trap.clear();

    const log = captureLog();
    await finishJob(ws, 1, log.logger);
    expect(await trap.runs()).toEqual([]);
    expect(await readFile(config, 'utf8')).toBe(MIRROR_CONFIG);
    expect(warnedKeys(log)).toEqual(
      expect.arrayContaining([
        'core.fsmonitor',
        'core.repositoryformatversion',
        'extensions.worktreeconfig',
      ]),
    );
    // Key names only: the planted value (a path an attacker chose) is not repeated in the log.
    expect(log.text()).not.toContain(monitor);

    const next = await open('job-2');
    const commit = await finishJob(next, 2);
    expect(remoteSha(remote, 'autofix/fix/2-answer')).toBe(commit.sha);
    expect(await trap.runs()).toEqual([]);
  });

  it("never runs hooks planted in the mirror or through core.hooksPath during a job; the job's commit removes them", async () => {
    remote = await makeRemote(root);
    const ws = await open('job-1');
    const hooksPath = join(root, 'planted-hooks');
    for (const hook of HOOKS) {
      await trap.install(join(ws.mirrorDir, 'hooks', hook), `mirror-${hook}`);
      await trap.install(join(hooksPath, hook), `hooksPath-${hook}`);
    }
    setConfig(join(ws.mirrorDir, 'config'), 'core.hooksPath', hooksPath);
    git(ws.worktree, ['checkout', '--quiet', '--detach']);
    expect(await trap.runs()).toContain('hooksPath-post-checkout');
    await trap.clear();

    const log = captureLog();
    await finishJob(ws, 1, log.logger);
    expect(await trap.runs()).toEqual([]);
    expect(warnedKeys(log)).toContain('core.hookspath');
    expect(repairedPaths(log)).toEqual(expect.arrayContaining(HOOKS.map((h) => `hooks/${h}`)));
    expect(await readdir(join(ws.mirrorDir, 'hooks')).catch(() => [])).toEqual([]);

    const next = await open('job-2');
    await finishJob(next, 2);
    expect(await trap.runs()).toEqual([]);
  });

  it('removes drivers, trailer commands, includes and remote redirects planted between jobs before any of them runs', async () => {
    // The repository itself asks for drivers by name, as any repository may.
    remote = await makeRemote(root, {
      '.gitattributes': '* filter=x diff=x merge=x\n',
      'README.md': '# demo\n',
      'src/app.js': 'export const answer = 41;\n',
    });
    await finishJob(await open('job-1'), 1);

    const mirror = join(root, 'work', 'mirrors', 'acme', 'demo.git');
    const config = join(mirror, 'config');
    const run = async (label: string) => `${await trap.script(label)} #`;
    setConfig(config, 'filter.x.clean', await run('filter-clean'));
    setConfig(config, 'filter.x.smudge', await run('filter-smudge'));
    setConfig(config, 'filter.x.required', 'true');
    setConfig(config, 'diff.x.textconv', await run('textconv'));
    setConfig(config, 'diff.x.command', await run('diff-command'));
    setConfig(config, 'diff.external', await run('diff-external'));
    setConfig(config, 'merge.x.driver', await run('merge-driver'));
    setConfig(config, 'trailer.autofix-issue.cmd', await run('trailer-cmd'));
    setConfig(config, `remote.${remote.url}.uploadpack`, await run('uploadpack'));
    setConfig(config, `remote.${remote.url}.receivepack`, await run('receivepack'));
    const included = join(root, 'planted.inc');
    setConfig(included, 'core.fsmonitor', await trap.script('included-fsmonitor'));
    setConfig(included, 'filter.x.smudge', await run('included-smudge'));
    setConfig(config, 'include.path', included);
    // The remote URL redirected to a repository whose hooks the attacker wrote.
    const decoy = join(root, 'decoy.git');
    git(root, ['clone', '--quiet', '--bare', remote.dir, decoy]);
    await trap.install(join(decoy, 'hooks', 'pre-receive'), 'decoy-pre-receive');
    setConfig(config, `url.file://${decoy}.insteadOf`, remote.url);

    const log = captureLog();
    const ws = await open('job-2', log.logger);
    const commit = await finishJob(ws, 2);
    expect(await trap.runs()).toEqual([]);

    // The job did its work, on the real remote, with the real file contents.
    expect(remoteSha(remote, 'autofix/fix/2-answer')).toBe(commit.sha);
    expect(git(remote.dir, ['show', `${commit.sha}:src/app.js`])).toBe('export const answer = 2;');
    expect(commit.diff).toContain('+export const answer = 2;');
    expect(git(decoy, ['for-each-ref', 'refs/heads/autofix/fix/2-answer'])).toBe('');
    expect(await readFile(config, 'utf8')).toBe(MIRROR_CONFIG);
    expect(warnedKeys(log)).toEqual(
      expect.arrayContaining([
        'filter.x.clean',
        'filter.x.smudge',
        'diff.x.textconv',
        'diff.external',
        'merge.x.driver',
        'trailer.autofix-issue.cmd',
        `remote.${remote.url}.uploadpack`,
        `remote.${remote.url}.receivepack`,
        'include.path',
        `url.file://${decoy}.insteadof`,
      ]),
    );
  });

  it("never runs a clean filter or a remote redirect planted after the job opened its workspace, in that job's commit and push", async () => {
    remote = await makeRemote(root);
    const ws = await open('job-1');
    await assertCleanWorktree(ws, ws.base_commit);
    await prepareBranch(ws, {
      name: 'autofix/fix/1-answer',
      issue: 1,
      identity: DEFAULT_BOT_IDENTITY,
    });
    // What escaped repository code could do during setup or validation: the worktree asks for a
    // driver by name, the mirror defines it, and the remote URL now leads to the attacker's copy.
    await writeFile(join(ws.worktree, '.gitattributes'), '* filter=x\n');
    const config = join(ws.mirrorDir, 'config');
    setConfig(config, 'filter.x.clean', `${await trap.script('filter-clean')} #`);
    setConfig(config, 'filter.x.required', 'true');
    const decoy = join(root, 'decoy.git');
    git(root, ['clone', '--quiet', '--bare', remote.dir, decoy]);
    await trap.install(join(decoy, 'hooks', 'pre-receive'), 'decoy-pre-receive');
    setConfig(config, `url.file://${decoy}.insteadOf`, remote.url);
    // Both are live: git hashing a file runs the filter, and the remote URL is rewritten.
    git(ws.worktree, ['hash-object', '--path=src/app.js', 'src/app.js']);
    expect(await trap.runs()).toEqual(['filter-clean']);
    await trap.clear();
    expect(git(ws.mirrorDir, ['ls-remote', '--get-url', remote.url])).toBe(`file://${decoy}`);

    const log = captureLog();
    await writeFile(join(ws.worktree, 'src/app.js'), 'export const answer = 1;\n');
    const commit = await commitChanges(ws, {
      message: 'fix(app): return 1 from app\n\nFixes #1\n',
      logger: log.logger,
    });
    await pushBranch(ws, { logger: log.logger });
    await closeWorkspace(ws);
    expect(await trap.runs()).toEqual([]);
    expect(remoteSha(remote, 'autofix/fix/1-answer')).toBe(commit.sha);
    expect(git(remote.dir, ['show', `${commit.sha}:src/app.js`])).toBe('export const answer = 1;');
    expect(git(decoy, ['for-each-ref', 'refs/heads/autofix'])).toBe('');
    expect(warnedKeys(log)).toEqual(
      expect.arrayContaining([
        'filter.x.clean',
        'filter.x.required',
        `url.file://${decoy}.insteadof`,
      ]),
    );
  });

  it("names git's own receive-pack and upload-pack, so remote programs planted between the scrub and the push never run", async () => {
    remote = await makeRemote(root);
    const ws = await open('job-1');
    await prepareBranch(ws, {
      name: 'autofix/fix/1-answer',
      issue: 1,
      identity: DEFAULT_BOT_IDENTITY,
    });
    await writeFile(join(ws.worktree, 'src/app.js'), 'export const answer = 1;\n');
    await commitChanges(ws, { message: 'fix(app): return 1 from app\n\nFixes #1\n' });
    const config = join(ws.mirrorDir, 'config');
    const receivePack = `${await trap.script('receive-pack')} #`;
    const uploadPack = `${await trap.script('upload-pack')} #`;
    // An attacker who writes the mirror's config at the last moment: after our scrub, as our
    // `git push` or `git ls-remote` starts.
    const plant = [
      'case "$1" in push|ls-remote)',
      `  "$REAL_GIT" config --file '${config}' 'remote.${remote.url}.receivepack' '${receivePack}'`,
      `  "$REAL_GIT" config --file '${config}' 'remote.${remote.url}.uploadpack' '${uploadPack}' ;;`,
      'esac',
    ].join('\n');
    await withGitOnPath(join(root, 'bin'), plant, async () => {
      const pushed = await pushBranch(ws);
      expect(remoteSha(remote, 'autofix/fix/1-answer')).toBe(pushed);
      // Rollback scrubs too, then asks the remote (ls-remote) and deletes the branch (push).
      const report = await rollbackWorkspace(ws);
      expect(report.problems).toEqual([]);
    });
    expect(git(ws.mirrorDir, ['config', `remote.${remote.url}.receivepack`])).toBe(receivePack);
    expect(await trap.runs()).toEqual([]);
    expect(git(remote.dir, ['for-each-ref', '--format=%(refname)', 'refs/heads'])).toBe(
      'refs/heads/main',
    );
  });

  it('scrubs before a rollback: a smudge filter planted while validation ran does not run in reset --hard', async () => {
    remote = await makeRemote(root, {
      '.gitattributes': '* filter=x\n',
      'src/app.js': 'export const answer = 41;\n',
    });
    const ws = await open('job-1');
    await writeFile(join(ws.worktree, 'src/app.js'), 'export const answer = 0;\n');
    const config = join(ws.mirrorDir, 'config');
    setConfig(config, 'filter.x.smudge', `${await trap.script('smudge')} #`);
    setConfig(config, 'filter.x.required', 'true');

    const log = captureLog();
    const report = await rollbackWorkspace(ws, { logger: log.logger });
    expect(await trap.runs()).toEqual([]);
    expect(report.problems).toEqual([]);
    expect(report.done[0]).toBe('scrub mirror');
    expect(await readFile(join(ws.worktree, 'src/app.js'), 'utf8')).toBe(
      'export const answer = 41;\n',
    );
    expect(warnedKeys(log)).toEqual(expect.arrayContaining(['filter.x.smudge']));
    await closeWorkspace(ws);
  });

  it('scrubs before parking: a smudge filter planted while validation ran does not run when the worktree is recycled', async () => {
    remote = await makeRemote(root, {
      '.gitattributes': '* filter=x\n',
      'src/app.js': 'export const answer = 41;\n',
    });
    const log = captureLog();
    const ws = await open('job-1', log.logger, 1);
    await writeFile(join(ws.worktree, 'src/app.js'), 'export const answer = 0;\n');
    const config = join(ws.mirrorDir, 'config');
    setConfig(config, 'filter.x.smudge', `${await trap.script('smudge')} #`);
    setConfig(config, 'filter.x.required', 'true');

    // Parking runs `reset --hard` in the worktree, which would run the smudge filter.
    await closeWorkspace(ws, log.logger);
    expect(await trap.runs()).toEqual([]);
    expect(warnedKeys(log)).toEqual(expect.arrayContaining(['filter.x.smudge']));
    // …and the worktree was parked, clean, for the next job.
    const next = await open('job-2', undefined, 1);
    expect(await readFile(join(next.worktree, 'src/app.js'), 'utf8')).toBe(
      'export const answer = 41;\n',
    );
    expect(await trap.runs()).toEqual([]);
    await closeWorkspace(next);
  });

  it('restores a parked worktree git dir whose commondir was pointed at a planted repository', async () => {
    remote = await makeRemote(root, {
      '.gitattributes': '* filter=x\n',
      'src/app.js': 'export const answer = 41;\n',
    });
    await finishJob(await open('job-1', undefined, 1), 1);
    const mirror = join(root, 'work', 'mirrors', 'acme', 'demo.git');
    const [id] = await readdir(join(mirror, 'worktrees'));
    // A repository of the attacker's: the mirror's objects and refs, and a config of its own.
    const planted = join(root, 'planted.git');
    await mkdir(planted);
    for (const entry of ['objects', 'refs', 'HEAD'])
      await symlink(join(mirror, entry), join(planted, entry));
    await writeFile(
      join(planted, 'config'),
      `[core]\n\trepositoryformatversion = 0\n\tbare = true\n[filter "x"]\n\tsmudge = ${await trap.script('smudge')} #\n\tclean = ${await trap.script('clean')} #\n`,
    );
    await writeFile(join(mirror, 'worktrees', id!, 'commondir'), `${planted}\n`);
    // A new base commit: the claimed worktree must check files out again.
    await pushCommit(remote, 'main', 'src/app.js', 'export const answer = 43;\n');

    const log = captureLog();
    const ws = await open('job-2', log.logger, 1);
    expect(repairedPaths(log)).toContain(`worktrees/${id!}/commondir`);
    await finishJob(ws, 2);
    expect(await trap.runs()).toEqual([]);
    expect(await readFile(join(mirror, 'worktrees', id!, 'commondir'), 'utf8')).toBe('../..\n');
  });

  it('leaves a mirror alone and warns about nothing after legitimate jobs', async () => {
    remote = await makeRemote(root);
    const log = captureLog();
    await finishJob(await open('job-1', log.logger, 1), 1);
    await finishJob(await open('job-2', log.logger, 1), 2);
    const mirror = join(root, 'work', 'mirrors', 'acme', 'demo.git');
    expect(await scrubMirror(mirror)).toEqual({
      unexpectedKeys: [],
      missingKeys: [],
      repaired: [],
    });
    expect(log.warnings()).toEqual([]);
    expect(await readFile(join(mirror, 'config'), 'utf8')).toBe(MIRROR_CONFIG);
  });

  it('accepts a mirror made by earlier versions (git init + git config) without a warning', async () => {
    const mirror = join(root, 'old.git');
    execFileSync('git', ['init', '--quiet', '--bare', mirror], {
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    });
    for (const [key, value] of [
      ['gc.autoDetach', 'false'],
      ['core.logAllRefUpdates', 'false'],
      ['fetch.writeCommitGraph', 'true'],
    ] as const) {
      git(mirror, ['config', key, value]);
    }
    const log = captureLog();
    expect(await scrubMirror(mirror, log.logger)).toEqual({
      unexpectedKeys: [],
      missingKeys: [],
      repaired: [],
    });
    expect(log.warnings()).toEqual([]);
  });

  it('rewrites a config that is a symbolic link without touching its target, and one git cannot parse', async () => {
    const mirror = join(root, 'm.git');
    await mkdir(mirror);
    const target = join(root, 'elsewhere');
    await writeFile(target, 'not ours\n');
    await symlink(target, join(mirror, 'config'));
    const first = await scrubMirror(mirror);
    expect(first.unexpectedKeys).toEqual(['(config not a file)']);
    expect(await readFile(target, 'utf8')).toBe('not ours\n');
    expect(await readFile(join(mirror, 'config'), 'utf8')).toBe(MIRROR_CONFIG);

    await writeFile(join(mirror, 'config'), '[core\n\tfsmonitor = /tmp/x\n');
    expect((await scrubMirror(mirror)).unexpectedKeys).toEqual(['(unreadable config)']);
    expect(await readFile(join(mirror, 'config'), 'utf8')).toBe(MIRROR_CONFIG);
  });
});
