/**
 * The one way tests build sample git repositories (issue #16): a fresh `mkdtemp` directory (or a
 * folder in one the test already has), `git init` on a named branch, files written from a map,
 * commits with a fixed identity and fixed dates (the same files give the same commit ids on every
 * run), further commits, a bare remote to push to, and clean-up.
 *
 *   const repo = createRepo({ files: { 'src/a.js': 'x\n', 'run.sh': executable('#!/bin/sh\n') } });
 *   const sha = repo.commit('second', { 'src/a.js': 'y\n' });
 *   const remote = repo.bare({ origin: true }); // remote.dir, remote.url, remote.git(...)
 *   repo.cleanup();
 *
 * Real git, run with the tests' environment: the caller's environment plus the identity below and
 * no system config (`GIT_CONFIG_NOSYSTEM`), as the tests' git always ran. The bot's own git
 * environment (`src/git/git-env.ts`) is what the product uses and is not needed here.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Who commits in test repositories (a human maintainer, never the bot). */
export const TEST_IDENTITY = { name: 'Maintainer', email: 'maintainer@example.com' } as const;

/** The first commit's date (2024-01-01T00:00:00Z); each further commit is one minute later. */
export const FIXED_EPOCH = 1_704_067_200;

const TEST_GIT_ENV = {
  GIT_AUTHOR_NAME: TEST_IDENTITY.name,
  GIT_AUTHOR_EMAIL: TEST_IDENTITY.email,
  GIT_COMMITTER_NAME: TEST_IDENTITY.name,
  GIT_COMMITTER_EMAIL: TEST_IDENTITY.email,
  GIT_CONFIG_NOSYSTEM: '1',
};

/** Runs git in `cwd` with the tests' identity; returns stdout, trimmed. */
export function git(cwd: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync('git', args, {
    cwd,
    env: { ...process.env, ...TEST_GIT_ENV, ...env },
    encoding: 'utf8',
  }).trim();
}

/** A file's content; `executable` makes it mode 755 (and 100755 in git). */
export type FileContent = string | Buffer | { content: string | Buffer; executable: true };
export type FileMap = Readonly<Record<string, FileContent>>;

export const executable = (content: string | Buffer): FileContent => ({
  content,
  executable: true,
});

/** Writes `files` below `dir`, creating folders as needed. */
export function writeFiles(dir: string, files: FileMap): void {
  for (const [path, file] of Object.entries(files)) {
    const abs = join(dir, path);
    mkdirSync(dirname(abs), { recursive: true });
    if (typeof file === 'string' || Buffer.isBuffer(file)) {
      writeFileSync(abs, file);
    } else {
      writeFileSync(abs, file.content);
      chmodSync(abs, 0o755);
    }
  }
}

export interface RepoOptions {
  /** An existing folder to work in; default: a new `mkdtemp` folder, which `cleanup()` removes. */
  root?: string;
  /** `mkdtemp` prefix when `root` is not given. */
  prefix?: string;
  /** The repository's folder below `root` (created); default: `root` itself. */
  name?: string;
  /** Branch `git init` starts on. Default `main`. */
  branch?: string;
  files?: FileMap;
  /** Commit `files` (default), or leave them untracked and the repository without a commit. */
  commit?: boolean;
  /** The first commit's message. Default `initial`. */
  message?: string;
  /** More `git init` arguments (e.g. `--template=`). */
  initArgs?: string[];
}

export interface BareRemote {
  /** The bare repository. */
  dir: string;
  /** Its `file://` URL. */
  url: string;
  /** git with `--git-dir` set to the bare repository. */
  git(...args: string[]): string;
}

export interface TestRepo {
  /** The folder the repository lives in (the `mkdtemp` one unless `root` was given). */
  root: string;
  /** The work tree. */
  dir: string;
  /** git in the work tree with the tests' identity (dates are git's own: use `commit` for fixed ones). */
  git(...args: string[]): string;
  /** Writes files into the work tree, nothing more. */
  write(files: FileMap): void;
  /** Writes `files`, stages everything and commits with the next fixed date; returns the commit id. */
  commit(message: string, files?: FileMap): string;
  head(): string;
  /**
   * A bare clone (default `<root>/remote.git`); with `origin`, it becomes this repository's
   * `origin` and is fetched (`origin/<branch>` exists).
   */
  bare(options?: { path?: string; origin?: boolean }): BareRemote;
  /** Removes what the builder made: the `mkdtemp` folder, or `dir` when `root` was given. */
  cleanup(): void;
}

export function bareRemote(dir: string): BareRemote {
  return {
    dir,
    url: pathToFileURL(dir).href,
    git: (...args) => git(dirname(dir), ['--git-dir', dir, ...args]),
  };
}

/** Creates (or opens, for a folder that already exists) a repository and makes its first commit. */
export function createRepo(options: RepoOptions = {}): TestRepo {
  const owned = options.root === undefined;
  const root =
    options.root ?? realpathSync(mkdtempSync(join(tmpdir(), options.prefix ?? 'autofix-repo-')));
  const dir = options.name === undefined ? root : join(root, options.name);
  mkdirSync(dir, { recursive: true });
  const branch = options.branch ?? 'main';
  git(dir, ['init', '--quiet', `--initial-branch=${branch}`, ...(options.initArgs ?? [])]);
  const repo = openRepo(dir, { root, owned });
  if (options.files) repo.write(options.files);
  if (options.commit !== false) repo.commit(options.message ?? 'initial');
  return repo;
}

/** The builder's handle on a work tree that exists already (a clone, say). */
export function openRepo(dir: string, options: { root?: string; owned?: boolean } = {}): TestRepo {
  const root = options.root ?? dir;
  let commits = 0;
  const run = (...args: string[]): string => git(dir, args);
  const repo: TestRepo = {
    root,
    dir,
    git: run,
    write: (files) => writeFiles(dir, files),
    commit(message, files) {
      if (files) writeFiles(dir, files);
      run('add', '--all');
      const date = `@${FIXED_EPOCH + 60 * commits++} +0000`;
      git(dir, ['commit', '--quiet', '--allow-empty', '-m', message], {
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date,
      });
      return run('rev-parse', 'HEAD');
    },
    head: () => run('rev-parse', 'HEAD'),
    bare({ path = join(root, 'remote.git'), origin = false } = {}) {
      git(root, ['clone', '--quiet', '--bare', dir, path]);
      if (origin) {
        run('remote', 'add', 'origin', path);
        run('fetch', '--quiet', 'origin');
      }
      return bareRemote(path);
    },
    cleanup() {
      if (options.owned ?? false) rmSync(root, { recursive: true, force: true });
      else if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    },
  };
  return repo;
}

/** Clones `url` (a bare remote's path or URL) into `dir`, on `branch` when given. */
export function cloneRepo(url: string, dir: string, options: { branch?: string } = {}): TestRepo {
  const branch = options.branch ? ['--branch', options.branch] : [];
  git(dirname(dir), ['clone', '--quiet', ...branch, url, dir]);
  return openRepo(dir);
}
