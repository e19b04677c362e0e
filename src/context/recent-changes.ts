/**
 * The repository's recent history as the ranking reads it: the files each of the last commits
 * changed, newest first. Files a fix needs often change together with the files an issue names
 * (a module and its registry, a parser and its constants); `ranking/evidence/co-change.ts` gives
 * the files that changed with the best-ranked ones a share of their score.
 *
 * Git runs as for the listing (`list-repo-files.ts`): the bot's hardened git, told the job's git
 * directory, and `--no-ext-diff --no-textconv` so no configured program runs. Only names are
 * read; a path of the history counts only where it is a file of the map.
 */
import { checkoutGit } from '../git/worktree-git.js';

/** Commits read: enough for the files that change together now, cheap on a large history. */
export const RECENT_COMMITS = 300;

/**
 * Each commit's files, in git's order, from `git log -z --name-only --format=%x01`: each commit
 * is its format line (`\x01\0`), a newline, then its paths each ended by `\0`.
 */
export function parseChangedFiles(stdout: string): string[][] {
  return stdout
    .split('\x01')
    .map((commit) =>
      commit
        .replace(/^\0\n?/, '')
        .split('\0')
        .filter((p) => p !== ''),
    )
    .filter((files) => files.length > 0);
}

/**
 * The files of each of the last `RECENT_COMMITS` non-merge commits before HEAD; empty when there
 * is no history to read (not a repository, no commit, git failed): the ranking then goes without.
 */
export async function readRecentChanges(
  root: string,
  gitDir: string | undefined,
): Promise<string[][]> {
  const args = [
    '-c',
    'core.quotepath=off',
    'log',
    '--no-merges',
    '--no-renames',
    '--no-ext-diff',
    '--no-textconv',
    '--name-only',
    '-z',
    '--format=%x01',
    `--max-count=${RECENT_COMMITS}`,
    'HEAD',
    '--',
  ];
  const ran = await checkoutGit(root, gitDir, args).catch(() => undefined);
  return ran ? parseChangedFiles(ran.stdout) : [];
}
