/**
 * The files to look at: what git tracks, or (outside a git repository) a directory walk that
 * skips VCS, dependency and build folders. Paths are POSIX, relative, sorted.
 */
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

export interface ListedFiles {
  paths: string[];
  source: 'git' | 'walk';
}

/** Folders never worth reading: dependencies, VCS data, build and cache output. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set([
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  'bower_components',
  'vendor',
  'dist',
  'build',
  'out',
  'target',
  'coverage',
  '.next',
  '.nuxt',
  '.cache',
  '.venv',
  'venv',
  '__pycache__',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
  '.gradle',
  '.idea',
  '.autofix',
]);

function gitLsFiles(root: string): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-c', 'core.quotepath=off', 'ls-files', '-z', '--cached'],
      {
        cwd: root,
        maxBuffer: 256 * 1024 * 1024,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
      },
      (err, stdout) => resolve(err ? undefined : stdout.split('\0').filter((p) => p !== '')),
    );
  });
}

async function walk(root: string, dir = ''): Promise<string[]> {
  const entries = await readdir(join(root, dir), { withFileTypes: true });
  const out: string[] = [];
  for (const entry of entries) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    // Symbolic links are not followed: they may point outside the repository.
    if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) out.push(...(await walk(root, path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

export async function listRepoFiles(root: string): Promise<ListedFiles> {
  const tracked = await gitLsFiles(root);
  if (tracked !== undefined) {
    const paths = tracked.filter(
      (p) => !p.split('/').some((segment) => segment === 'node_modules'),
    );
    return { paths: paths.sort(), source: 'git' };
  }
  return { paths: (await walk(root)).sort(), source: 'walk' };
}
