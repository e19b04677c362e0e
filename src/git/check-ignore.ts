import { runGit } from './run-git.js';

/**
 * Which of these repository-relative paths git ignores (`.gitignore`, `.git/info/exclude`, the
 * global excludes file). Tracked files are never reported: git does not ignore what it tracks.
 * Paths travel NUL-separated, so any file name is safe.
 */
export async function checkIgnore(
  repoDir: string,
  paths: readonly string[],
  options: { gitDir?: string } = {},
): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const result = await runGit(['check-ignore', '--stdin', '-z'], {
    cwd: repoDir,
    input: `${paths.join('\0')}\0`,
    okCodes: [1], // 1 = none of the paths is ignored
    // In a job's worktree pass `ws.gitDir`: the `.git` link there is writable by repository code.
    ...(options.gitDir ? { env: { GIT_DIR: options.gitDir, GIT_WORK_TREE: repoDir } } : {}),
  });
  return new Set(result.stdout.split('\0').filter((p) => p !== ''));
}
