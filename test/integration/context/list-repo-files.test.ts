/**
 * Issue #11: the repository map lists a job's worktree with git, outside the sandbox, after
 * repository code ran in that worktree. That code can rewrite the worktree's `.git` link to a git
 * directory of its own whose `core.fsmonitor` git runs on `ls-files`, and git used to get the
 * worker's whole environment (the App's key, the LLM key). The history the ranking reads
 * (`git log --name-only`, recent-changes.ts) runs the same way, after the same code.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { listRepoFiles } from '../../../src/context/list-repo-files.js';
import { closeWorkspace, openWorkspace } from '../../../src/git/workspace.js';
import { withGitOnPath } from '../git/git-on-path.js';
import { createRepo } from '../../helpers/repo-builder.js';
import { git, makeRemote, removeDir, tempDir } from '../git/helpers.js';
import { makeTrap, type Trap } from '../git/trap.js';

let root: string;
let trap: Trap;

beforeEach(async () => {
  root = await tempDir('autofix-list-files-');
  trap = await makeTrap(root);
});
afterEach(async () => {
  await removeDir(root);
});

/** A repository of the attacker's: one file of its own, and a config that runs a program. */
async function plantedRepository(): Promise<string> {
  const planted = createRepo({
    root,
    name: 'planted',
    files: { 'planted.txt': 'not in the job\n' },
    commit: false,
  });
  planted.git('add', 'planted.txt');
  planted.git('config', 'core.fsmonitor', await trap.script('fsmonitor'));
  // A history whose diff would run programs: an external diff and a text conversion.
  planted.git('config', 'diff.external', await trap.script('external-diff'));
  planted.git('config', 'diff.planted.textconv', await trap.script('textconv'));
  await writeFile(join(planted.dir, '.git', 'info', 'attributes'), '* diff=planted\n');
  planted.commit('planted history', { '.gitattributes': '* diff=planted\n' });
  planted.git('add', 'planted.txt');
  return join(planted.dir, '.git');
}

describe('listRepoFiles', () => {
  it("lists from the workspace's git directory, not a .git link that repository code rewrote, and runs nothing", async () => {
    const remote = await makeRemote(root);
    const ws = await openWorkspace({
      workdir: join(root, 'work'),
      repo: 'acme/demo',
      remoteUrl: remote.url,
      baseBranch: 'main',
      jobId: 'job-1',
    });
    await writeFile(join(ws.worktree, '.git'), `gitdir: ${await plantedRepository()}\n`);
    // The plant is live: a plain git in the worktree follows the link and runs the monitor, and
    // its history's diff runs the text conversion.
    expect(git(ws.worktree, ['ls-files'])).toBe('.gitattributes\nplanted.txt');
    expect(await trap.runs()).toContain('fsmonitor');
    git(ws.worktree, ['log', '-p']);
    git(ws.worktree, ['log', '-p', '--ext-diff']);
    expect(await trap.runs()).toEqual(expect.arrayContaining(['textconv', 'external-diff']));
    await trap.clear();

    const listed = await listRepoFiles(ws.worktree, { gitDir: ws.gitDir });
    // The job's files and the job's history, none of the plant's.
    expect(listed).toEqual({
      paths: ['README.md', 'src/app.js'],
      source: 'git',
      changes: [['README.md', 'src/app.js']],
    });
    // Without the recorded git directory (a user's own checkout) git follows the link, but the
    // monitor, the external diff and the text conversion it names are switched off like every
    // program-running key.
    const followed = await listRepoFiles(ws.worktree);
    expect(followed.paths).toEqual(['.gitattributes', 'planted.txt']);
    expect(followed.changes).toEqual([['.gitattributes', 'planted.txt']]);
    expect(await trap.runs()).toEqual([]);
    await closeWorkspace(ws);
  });

  it("gives git none of the worker's environment", async () => {
    const repo = createRepo({ root, name: 'repo', files: { 'a.txt': 'a\n' }, commit: false });
    repo.git('add', 'a.txt');
    const secrets = { OPENAI_API_KEY: 'sk-test-worker-secret', WEBHOOK_SECRET: 'hook-secret-1234' };
    const recorded = join(root, 'git-env');
    const saved = { ...process.env };
    Object.assign(process.env, secrets);
    try {
      const listed = await withGitOnPath(join(root, 'bin'), `env > '${recorded}'`, () =>
        listRepoFiles(repo.dir),
      );
      expect(listed).toEqual({ paths: ['a.txt'], source: 'git', changes: [] });
    } finally {
      for (const name of Object.keys(secrets)) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
    const env = await readFile(recorded, 'utf8');
    for (const value of Object.values(secrets)) expect(env).not.toContain(value);
    // The bot's git environment: no system or global config.
    expect(env).toMatch(/^GIT_CONFIG_NOSYSTEM=1$/m);
  });

  it('still walks a directory that is not in a git repository', async () => {
    const dir = join(root, 'plain');
    await mkdir(join(dir, 'node_modules', 'dep'), { recursive: true });
    await writeFile(join(dir, 'b.txt'), 'b\n');
    await writeFile(join(dir, 'node_modules', 'dep', 'index.js'), '');
    expect(await listRepoFiles(dir)).toEqual({ paths: ['b.txt'], source: 'walk', changes: [] });
  });

  it('reads the files of each commit up to HEAD, newest first, without merges', async () => {
    const repo = createRepo({ root, name: 'history', files: { 'a.py': 'a\n' } });
    repo.commit('both', { 'a.py': 'a2\n', 'pkg/b c.py': 'b\n' });
    const middle = repo.commit('one', { 'pkg/b c.py': 'b2\n' });
    repo.git('checkout', '-q', '-b', 'side');
    repo.commit('side', { 'side.py': 's\n' });
    repo.git('checkout', '-q', 'main');
    repo.commit('main', { 'a.py': 'a3\n' });
    repo.git('merge', '-q', '--no-ff', '-m', 'merge side', 'side');
    repo.commit('later', { 'later.py': 'l\n' });
    const all = await listRepoFiles(repo.dir);
    expect(all.changes).toEqual([
      ['later.py'],
      ['a.py'],
      ['side.py'],
      ['pkg/b c.py'],
      ['a.py', 'pkg/b c.py'],
      ['a.py'],
    ]);
    // A checkout of an older commit: its history ends there (nothing after it is known).
    repo.git('checkout', '-q', '--detach', middle);
    expect((await listRepoFiles(repo.dir)).changes).toEqual([
      ['pkg/b c.py'],
      ['a.py', 'pkg/b c.py'],
      ['a.py'],
    ]);
  });
});
