/**
 * The repository must be a git repository (its top level, with a commit) whose
 * tree is clean — nothing staged, nothing modified, nothing untracked — because a failed attempt
 * is undone with `git reset --hard` + `git clean -fd`. Returns the baseline commit. Changes nothing.
 */
import { resolve } from 'node:path';
import { AutofixError } from '../../../errors.js';
import { runGit } from '../../../git/run-git.js';

function refuse(message: string): AutofixError {
  return new AutofixError('CONFIG_INVALID', message, { details: { stage: 'preflight' } });
}

export async function preflightRepo(repo: string): Promise<{ baselineCommit: string }> {
  const top = await runGit(['rev-parse', '--show-toplevel'], { cwd: repo }).catch(() => {
    throw refuse(`${repo} is not a git repository (work-order only runs on a git repository)`);
  });
  if (resolve(top.stdout.trim()) !== resolve(repo))
    throw refuse(`--repo must be the top level of the repository (${top.stdout.trim()})`);
  const head = await runGit(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], {
    cwd: repo,
    okCodes: [1],
  });
  if (head.code !== 0) throw refuse(`${repo} has no commit yet; commit a baseline first`);
  const status = await runGit(['status', '--porcelain', '--untracked-files=all'], { cwd: repo });
  if (status.stdout.trim() !== '')
    throw refuse(
      `${repo} has staged, modified or untracked files; commit or stash them first (a failed attempt is rolled back with \`git reset --hard\` + \`git clean -fd\`):\n${status.stdout.trimEnd()}`,
    );
  return { baselineCommit: head.stdout.trim() };
}
