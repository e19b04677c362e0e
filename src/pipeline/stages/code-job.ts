/** What the code stage's steps share once its workspace is open (`code-stage.ts`). */
import type { FixPlan, Reproduction } from '../../contracts.js';
import type { KeepOptions } from '../../git/keep-commit.js';
import type { Workspace } from '../../git/workspace.js';
import type { IssueInput } from '../ports.js';
import type { StageEnv, WorkspaceIo } from './stage-env.js';

export interface CodeJob {
  env: StageEnv;
  ws: Workspace;
  io: WorkspaceIo;
  /** The issue as the code agent sees it: the reproduction's note included. */
  issue: IssueInput;
  plan: FixPlan;
  /** The reproduce stage's test, when it wrote one. */
  reproduced: Reproduction | undefined;
  /** For git over HTTPS (keep, rollback): the job's token and logger. */
  git: KeepOptions;
}
