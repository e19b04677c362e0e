/**
 * Who the bot commits as. For a GitHub App the convention is `<app-slug>[bot]` and
 * `<bot-user-id>+<app-slug>[bot]@users.noreply.github.com`, so commits link to the app.
 */
export interface GitIdentity {
  name: string;
  email: string;
}

export const DEFAULT_BOT_IDENTITY: GitIdentity = {
  name: 'autofix[bot]',
  email: 'autofix[bot]@users.noreply.github.com',
};

/** Trailer that marks the commit creating a bot branch (see branch.ts). */
export const ISSUE_TRAILER = 'Autofix-Issue';

/**
 * Trailer naming the run that made a commit: a retried stage recognises its own earlier push by
 * it, and a branch carrying another run's commits is never mistaken for this run's.
 */
export const RUN_TRAILER = 'Autofix-Run';

/** Author and committer for one git command; `Signed-off-by` uses the committer. */
export function identityEnv(identity: GitIdentity): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: identity.name,
    GIT_AUTHOR_EMAIL: identity.email,
    GIT_COMMITTER_NAME: identity.name,
    GIT_COMMITTER_EMAIL: identity.email,
  };
}

/**
 * The command of the reproduction a commit carries (the test that failed on the base commit):
 * a re-run of the verification runs it again on the PR's head.
 */
export const REPRODUCTION_TRAILER = 'Autofix-Reproduction';
