/**
 * What `autofix run` checks of the user's repository before any token is spent: a clean tree with
 * a branch checked out, its config at HEAD, and no branch an earlier run left for the issue
 * (unless `--fresh`).
 */
import { resolve } from 'node:path';
import type { RepoConfig } from '../../config/repo-config.js';
import { AutofixError } from '../../errors.js';
import { findIssueBranches } from '../../git/branch-name.js';
import { runGit } from '../../git/run-git.js';
import { readConfigAt } from '../../pipeline/read-config-at.js';

async function git(repo: string, args: string[]): Promise<string> {
  return (await runGit(args, { cwd: repo })).stdout.trim();
}

/** Clean tree, a branch checked out, and the config of the repository's HEAD. */
export interface Preflight {
  branch: string;
  head: string;
  config: RepoConfig;
}

export async function preflight(repo: string): Promise<Preflight> {
  const top = await git(repo, ['rev-parse', '--show-toplevel']).catch(() => {
    throw new AutofixError('CONFIG_INVALID', `${repo} is not a git repository`);
  });
  if (resolve(top) !== resolve(repo)) {
    throw new AutofixError('CONFIG_INVALID', `--repo must be the top of the repository (${top})`);
  }
  const status = await git(repo, ['status', '--porcelain', '--untracked-files=all']);
  if (status !== '') {
    throw new AutofixError(
      'CONFIG_INVALID',
      `${repo} has uncommitted changes; commit or stash them first (autofix run needs a clean tree):\n${status}`,
    );
  }
  const branch = await git(repo, ['symbolic-ref', '--quiet', '--short', 'HEAD']).catch(() => {
    throw new AutofixError(
      'CONFIG_INVALID',
      `${repo} has a detached HEAD; check out a branch first`,
    );
  });
  const head = await git(repo, ['rev-parse', 'HEAD']);
  return { branch, head, config: await readConfigAt({ cwd: repo, commit: head }) };
}

/**
 * The branch an earlier run left for this issue in the repository: refused before any token is
 * spent unless `fresh` (then it is the branch this run replaces).
 */
export async function earlierBranch(
  repo: string,
  prefix: string,
  issue: number,
  fresh: boolean,
): Promise<string | undefined> {
  const refs = await git(repo, ['for-each-ref', '--format=%(refname:strip=2)', 'refs/heads/']);
  const found = findIssueBranches(refs.split('\n').filter(Boolean), prefix, issue);
  if (found.length === 0) return undefined;
  if (!fresh || found.length > 1) {
    throw new AutofixError(
      'BRANCH_EXISTS',
      `${found.length > 1 ? 'branches' : 'branch'} ${found.join(', ')} already ${found.length > 1 ? 'exist' : 'exists'} for issue #${issue} in ${repo} (an earlier run's); ` +
        (found.length > 1
          ? 'delete all but one of them, then run again with --fresh to replace it'
          : 'run again with --fresh to start over from the current branch and replace it, or delete it'),
      { details: { branches: found }, recoverable: false },
    );
  }
  return found[0];
}

/** The issue text as given, split into a title (its first line, or `--title`) and a body. */
export function titleAndBody(
  text: string,
  title: string | undefined,
): { title: string; body: string } {
  if (title) return { title, body: text };
  const [first = '', ...rest] = text.replace(/\r\n/g, '\n').trim().split('\n');
  return { title: first.replace(/^#+\s*/, ''), body: rest.join('\n').trim() };
}
