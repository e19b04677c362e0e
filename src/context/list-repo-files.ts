/**
 * The files to look at: what git tracks, or (outside a git repository) a directory walk that
 * skips VCS, dependency and build folders. Paths are POSIX, relative, sorted. With git, also the
 * files each recent commit changed (`recent-changes.ts`), read at the same time.
 *
 * In a job's worktree, repository code (setup, validation) may have rewritten the `.git` link to
 * a git directory of its own, whose config (`core.fsmonitor`: `ls-files` runs it) would start a
 * program. So git runs like all of the bot's git (run-git.ts): an allowlisted environment without
 * the worker's secrets and every program-running key switched off; and, given the workspace's
 * recorded git directory, with GIT_DIR/GIT_WORK_TREE instead of the link.
 */
import { openRepoFiles, type RepoFiles } from '../repo-files/open-repo-files.js';
import { checkoutGit } from '../git/worktree-git.js';
import { readRecentChanges } from './recent-changes.js';

export interface ListedFiles {
  paths: string[];
  source: 'git' | 'walk';
  /** The files each recent commit changed, newest first (`recent-changes.ts`); none for a walk. */
  changes: string[][];
}

export interface ListRepoFilesOptions {
  /**
   * The worktree's git directory as the workspace recorded it (`Workspace.gitDir`). Without it,
   * git finds the repository from `root` (a user's own checkout, `autofix context`).
   */
  gitDir?: string;
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

/** Tracked paths, or undefined when `root` is not in a git repository (or git fails). */
async function gitLsFiles(root: string, gitDir: string | undefined): Promise<string[] | undefined> {
  const args = ['-c', 'core.quotepath=off', 'ls-files', '-z', '--cached'];
  const listed = await checkoutGit(root, gitDir, args).catch(() => undefined);
  return listed?.stdout.split('\0').filter((p) => p !== '');
}

async function walk(files: RepoFiles, dir = ''): Promise<string[]> {
  const entries = await files.list(dir);
  if (!Array.isArray(entries)) return [];
  const out: string[] = [];
  for (const entry of entries) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    // Symbolic links are listed (the map shows their text), never followed.
    if (entry.kind === 'directory' && !SKIPPED_DIRS.has(entry.name))
      out.push(...(await walk(files, path)));
    else if (entry.kind === 'file' || entry.kind === 'symlink') out.push(path);
  }
  return out;
}

export async function listRepoFiles(
  root: string,
  options: ListRepoFilesOptions = {},
): Promise<ListedFiles> {
  const [tracked, changes] = await Promise.all([
    gitLsFiles(root, options.gitDir),
    readRecentChanges(root, options.gitDir),
  ]);
  if (tracked !== undefined) {
    const paths = tracked.filter(
      (p) => !p.split('/').some((segment) => segment === 'node_modules'),
    );
    return { paths: paths.sort(), source: 'git', changes };
  }
  return { paths: (await walk(openRepoFiles(root))).sort(), source: 'walk', changes: [] };
}
