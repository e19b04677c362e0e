/** Real git fixtures: a bare repository on disk serves as `origin` over file://. */
import { execFileSync } from 'node:child_process';
import {
  chmod,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Maintainer',
  GIT_AUTHOR_EMAIL: 'maintainer@example.com',
  GIT_COMMITTER_NAME: 'Maintainer',
  GIT_COMMITTER_EMAIL: 'maintainer@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};

export function git(cwd: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync('git', args, { cwd, env: { ...GIT_ENV, ...env }, encoding: 'utf8' }).trim();
}

export async function tempDir(prefix = 'autofix-git-'): Promise<string> {
  return realpath(await mkdtemp(join(tmpdir(), prefix)));
}

export async function removeDir(dir: string | undefined): Promise<void> {
  if (dir) await rm(dir, { recursive: true, force: true });
}

export interface Remote {
  /** The bare repository on disk. */
  dir: string;
  url: string;
  /** A normal clone used to push new commits as a maintainer would. */
  seed: string;
}

export async function makeRemote(
  root: string,
  files: Record<string, string> = {
    'README.md': '# demo\n',
    'src/app.js': 'export const answer = 41;\n',
  },
): Promise<Remote> {
  const seed = join(root, 'seed');
  await mkdir(seed, { recursive: true });
  git(seed, ['init', '-q', '-b', 'main']);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(seed, path)), { recursive: true });
    await writeFile(join(seed, path), content);
  }
  git(seed, ['add', '-A']);
  git(seed, ['commit', '-q', '-m', 'initial']);
  const dir = join(root, 'remote.git');
  git(root, ['clone', '-q', '--bare', seed, dir]);
  git(seed, ['remote', 'add', 'origin', dir]);
  git(seed, ['fetch', '-q', 'origin']);
  return { dir, url: pathToFileURL(dir).href, seed };
}

/** Commits a file on `branch` of the seed clone and pushes it to the remote. */
export async function pushCommit(
  remote: Remote,
  branch: string,
  path: string,
  content: string,
  message = `change ${path}`,
): Promise<string> {
  git(remote.seed, ['fetch', '-q', 'origin']);
  const exists = git(remote.seed, ['ls-remote', 'origin', `refs/heads/${branch}`]) !== '';
  git(remote.seed, ['checkout', '-q', '-B', branch, exists ? `origin/${branch}` : 'origin/main']);
  await mkdir(dirname(join(remote.seed, path)), { recursive: true });
  await writeFile(join(remote.seed, path), content);
  git(remote.seed, ['add', '-A']);
  git(remote.seed, ['commit', '-q', '-m', message]);
  git(remote.seed, ['push', '-q', 'origin', `HEAD:refs/heads/${branch}`]);
  git(remote.seed, ['fetch', '-q', 'origin']);
  return git(remote.seed, ['rev-parse', 'HEAD']);
}

export function remoteHeads(remote: Remote): string[] {
  const out = git(remote.dir, ['for-each-ref', '--format=%(refname)', 'refs/heads/']);
  return out ? out.split('\n') : [];
}

export function remoteSha(remote: Remote, branch: string): string | null {
  const out = git(remote.dir, ['for-each-ref', '--format=%(objectname)', `refs/heads/${branch}`]);
  return out || null;
}

/** A pre-receive hook that rejects every push with a message, as GitHub does for workflow files. */
export async function rejectPushes(remote: Remote, message: string): Promise<void> {
  const hook = join(remote.dir, 'hooks', 'pre-receive');
  await writeFile(hook, `#!/bin/sh\necho "${message}" >&2\nexit 1\n`);
  await chmod(hook, 0o755);
}

/** Every file below `dir` whose bytes contain `needle` (for "the token is nowhere" checks). */
export async function filesContaining(dir: string, needle: string): Promise<string[]> {
  const hits: string[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const entry of await readdir(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) await walk(p);
      else if (entry.isFile() && (await readFile(p)).includes(needle)) hits.push(p);
    }
  };
  await walk(dir);
  return hits;
}
