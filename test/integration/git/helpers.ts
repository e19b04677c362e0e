/**
 * Real git fixtures: a bare repository on disk serves as `origin` over file://. Repositories are
 * made by the shared builder (`test/helpers/repo-builder.ts`); `git` is its runner, re-exported
 * here for the many git tests that import it from this file.
 */
import { chmod, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createRepo, git, type FileMap, type TestRepo } from '../../helpers/repo-builder.js';
import { keepCommit, publishKept, type KeepOptions } from '../../../src/git/keep-commit.js';
import type { Workspace } from '../../../src/git/workspace.js';

export { git };

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
  /** The builder's handle on `seed` (keeps its fixed commit dates in order). */
  seedRepo: TestRepo;
}

/** `<root>/seed` committed on `main`, cloned bare to `<root>/remote.git`, its `origin`. */
export function makeRemote(
  root: string,
  files: FileMap = {
    'README.md': '# demo\n',
    'src/app.js': 'export const answer = 41;\n',
  },
): Promise<Remote> {
  const seedRepo = createRepo({ root, name: 'seed', files });
  const { dir, url } = seedRepo.bare({ path: join(root, 'remote.git'), origin: true });
  return Promise.resolve({ dir, url, seed: seedRepo.dir, seedRepo });
}

/** Commits a file on `branch` of the seed clone and pushes it to the remote. */
export function pushCommit(
  remote: Remote,
  branch: string,
  path: string,
  content: string,
  message = `change ${path}`,
): Promise<string> {
  const seed = remote.seedRepo;
  seed.git('fetch', '-q', 'origin');
  const exists = seed.git('ls-remote', 'origin', `refs/heads/${branch}`) !== '';
  seed.git('checkout', '-q', '-B', branch, exists ? `origin/${branch}` : 'origin/main');
  const sha = seed.commit(message, { [path]: content });
  seed.git('push', '-q', 'origin', `HEAD:refs/heads/${branch}`);
  seed.git('fetch', '-q', 'origin');
  return Promise.resolve(sha);
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

/**
 * What the product does to get a job's commit onto its branch: keep it on the run's private ref
 * (the code stage), then publish it (the last stage) — for tests that need a pushed branch.
 */
export async function pushBranch(
  ws: Workspace,
  options: KeepOptions = {},
  // One private ref per job, as per run in the product.
  runId = `run-${basename(ws.jobDir).replace(/[^A-Za-z0-9._-]/g, '-')}`,
): Promise<string> {
  await keepCommit(ws, runId, options);
  return publishKept(ws, options);
}
