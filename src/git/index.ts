/** The git layer's surface for the pipeline (DESIGN.md §5.5). */
export { gitApplyCheck } from './apply-check.js';
export { checkoutBranchTip, prepareBranch, type PrepareBranchOptions } from './branch.js';
export {
  assertBotBranch,
  branchName,
  COMMIT_TYPES,
  DEFAULT_BRANCH_PREFIX,
  slugify,
  type BranchNameInput,
} from './branch-name.js';
export { commitChanges, type CommitOptions } from './commit.js';
export {
  COMMIT_SUBJECT,
  formatCommitMessage,
  validateCommitMessage,
  type CommitMessageInput,
} from './commit-message.js';
export { DEFAULT_BOT_IDENTITY, ISSUE_TRAILER, type GitIdentity } from './identity.js';
export { pushBranch, type PushOptions } from './push.js';
export { rollbackWorkspace, type RollbackOptions, type RollbackReport } from './rollback.js';
export {
  assertCleanWorktree,
  closeWorkspace,
  openWorkspace,
  withWorkspace,
  type BranchState,
  type Workspace,
  type WorkspaceOptions,
} from './workspace.js';
export { worktreeGit, type WorktreeRef } from './worktree-git.js';
