/** The validated change as a Conventional Commit on the job's branch (docs/CONTRACTS.md). */
import type { Commit, FixPlan } from '../contracts.js';
import { findPathViolations } from '../edits/index.js';
import { pathPolicyError } from '../edits/path-policy-error.js';
import type { PathPolicy } from '../edits/index.js';
import { checkIgnore } from '../git/check-ignore.js';
import { disarmClosingReferences } from '../text/neutralize-inline.js';
import { formatCommitMessage } from '../git/commit-message.js';
import { commitChanges } from '../git/commit.js';
import type { GitIdentity } from '../git/identity.js';
import type { Workspace } from '../git/workspace.js';
import type { Logger } from '../logger.js';
import type { CodeResult } from './code/run-code-agent.js';
import { commitDescription } from './commit-subject.js';
import type { IssueInput } from './ports.js';

export function commitChange(
  ws: Workspace,
  input: {
    issue: IssueInput;
    plan: FixPlan;
    code: CodeResult;
    identity: GitIdentity;
    logger?: Logger;
    /** Recorded as the commit's `Autofix-Run` trailer. */
    runId?: string;
    /** More trailers (the CI follow-up's round and failure signature). */
    trailers?: readonly { key: string; value: string }[];
  },
): Promise<Commit> {
  const { issue, plan, code } = input;
  // The subject (the LLM's, or the issue author's title as a last resort) and the steps (the
  // LLM's) are text: a `closes #5` in them would close #5 once the commit reaches the default
  // branch, whatever the PR body says. `commitDescription` disarms too; this stays as the guard.
  const disarm = (text: string): string =>
    disarmClosingReferences(text, { issueNumber: issue.number });
  const message = formatCommitMessage({
    type: plan.commit_type,
    scope: plan.scope,
    description: disarm(commitDescription({ plan, issue })),
    issue: issue.number,
    body: plan.plan_steps.map((s) => `- ${disarm(s.description)}`).join('\n'),
  });
  return commitChanges(ws, {
    message,
    identity: input.identity,
    paths: code.changes.map((c) => c.path),
    validationResults: code.validation,
    ...(input.logger ? { logger: input.logger } : {}),
    ...(input.runId ? { runId: input.runId } : {}),
    ...(input.trailers ? { trailers: input.trailers } : {}),
  });
}

/** The planner's path check over a job's worktree: protected or out-of-scope paths end the run. */
export function planPathCheck(
  ws: Workspace,
  policy: PathPolicy,
): (paths: readonly string[]) => Promise<void> {
  return async (paths) => {
    const violations = await findPathViolations(paths, policy, {
      repoDir: ws.worktree,
      isIgnored: (p) => checkIgnore(ws.worktree, p, { gitDir: ws.gitDir }),
    });
    if (violations.length > 0) throw pathPolicyError(violations);
  };
}
