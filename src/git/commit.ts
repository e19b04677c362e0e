/**
 * Commits the worktree's changes on the job's branch (docs/CONTRACTS.md): validated Conventional
 * Commit message, `--signoff` with the bot identity, the `Autofix-Issue` trailer that marks the
 * branch as ours, and no hooks (repository code only runs through exec/, sandboxed). An empty
 * change is an error, never an empty commit. The mirror is scrubbed first: repository code ran
 * since the job opened it, and `git add` would run a clean filter planted meanwhile.
 */
import type { CommandResult, Commit } from '../contracts.js';
import { AutofixError } from '../errors.js';
import type { Logger } from '../logger.js';
import { validateCommitMessage } from './commit-message.js';
import { runGit } from './run-git.js';
import { scrubMirrorLocked } from './scrub-mirror-locked.js';
import {
  DEFAULT_BOT_IDENTITY,
  type GitIdentity,
  identityEnv,
  ISSUE_TRAILER,
  RUN_TRAILER,
} from './identity.js';
import { worktreeGit } from './worktree-git.js';
import type { Workspace } from './workspace.js';

export interface CommitOptions {
  message: string;
  identity?: GitIdentity;
  /**
   * Paths of the change set. When given, only these are staged, so files that setup or
   * validation left behind (build output missing from .gitignore) are not committed.
   */
  paths?: readonly string[];
  /** The validation run that passed for this change; copied into the Commit record. */
  validationResults?: CommandResult[];
  /** Where a tampered mirror is reported. */
  logger?: Logger;
  /** The run making the commit, recorded as the `Autofix-Run` trailer. */
  runId?: string;
  /** More trailers (`Key: value`), our own words only (e.g. the CI follow-up's round). */
  trailers?: readonly { key: string; value: string }[];
}

export async function commitChanges(ws: Workspace, options: CommitOptions): Promise<Commit> {
  const branch = ws.branch;
  if (!branch)
    throw new AutofixError('INTERNAL', 'commit before prepareBranch', { recoverable: false });
  validateCommitMessage(options.message, branch.issue);
  await scrubMirrorLocked(ws.mirrorDir, options.logger);

  if (options.paths) {
    if (options.paths.length > 0) {
      await worktreeGit(ws, ['add', '--all', '--', ...options.paths], {
        env: { GIT_LITERAL_PATHSPECS: '1' },
      });
    }
  } else {
    await worktreeGit(ws, ['add', '--all']);
  }
  const staged = await worktreeGit(ws, ['diff', '--cached', '--quiet'], { okCodes: [1] });
  if (staged.code === 0) {
    throw new AutofixError('INVALID_DIFF', 'the change is empty: nothing to commit', {
      recoverable: false,
    });
  }
  await worktreeGit(
    ws,
    [
      '-c',
      'commit.gpgSign=false',
      'commit',
      '--quiet',
      '--no-verify',
      '--signoff',
      '--cleanup=whitespace', // keep `#` lines (markdown headings) in the body
      `--trailer=${ISSUE_TRAILER}: ${branch.issue}`,
      ...(options.runId ? [`--trailer=${RUN_TRAILER}: ${options.runId}`] : []),
      ...(options.trailers ?? []).map((t) => `--trailer=${t.key}: ${t.value}`),
      '--file=-',
    ],
    { input: options.message, env: identityEnv(options.identity ?? DEFAULT_BOT_IDENTITY) },
  );

  const head = await worktreeGit(ws, ['rev-parse', '--verify', 'HEAD^{commit}']);
  return describeCommit(ws, head.stdout.trim(), options.validationResults ?? []);
}

/**
 * The Commit record of a commit on the job's branch, read from the mirror (nothing in the
 * worktree involved): message, its own diff (`sha^..sha`) and the files it changed.
 */
export async function describeCommit(
  ws: Workspace,
  sha: string,
  validationResults: CommandResult[],
): Promise<Commit> {
  const branch = ws.branch;
  if (!branch)
    throw new AutofixError('INTERNAL', 'describeCommit before prepareBranch', {
      recoverable: false,
    });
  const show = await runGit(['log', '-1', '--format=%cI%x00%B', sha], { cwd: ws.mirrorDir });
  const [timestamp = '', message = ''] = show.stdout.split('\0');
  const diff = await runGit(
    [
      'diff',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--no-renames',
      '--binary',
      `${sha}^`,
      sha,
    ],
    { cwd: ws.mirrorDir },
  );
  const names = await runGit(['diff', '--name-only', '--no-renames', '-z', `${sha}^`, sha], {
    cwd: ws.mirrorDir,
  });
  return {
    issue_number: branch.issue,
    message: message.trimEnd(),
    diff: diff.stdout,
    files_changed: names.stdout.split('\0').filter(Boolean),
    validation_results: validationResults,
    sha,
    branch: branch.name,
    timestamp,
  };
}
