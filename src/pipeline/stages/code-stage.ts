/**
 * Code: the change, validated in the sandbox, committed on the run's branch in the workspace and
 * kept on the run's private ref (git/keep-commit.ts) — not published: the branch on the remote
 * moves only in the last stage. Any failure here rolls the workspace back (and deletes what it
 * kept) before it is thrown.
 */
import type { CodeOutput } from '../../contracts.js';
import { checkSandbox, passthroughValues, withRepoSandbox } from '../../exec/index.js';
import { prepareBranch, type PreparedBranch } from '../../git/branch.js';
import { DEFAULT_BOT_IDENTITY } from '../../git/identity.js';
import { findKept } from '../../git/keep-commit.js';
import { rollbackWorkspace } from '../../git/rollback.js';
import type { Workspace } from '../../git/workspace.js';
import { refuseWorkspaceCredentials } from '../../secrets/refuse-workspace-credentials.js';
import type { IssueInput } from '../ports.js';
import { askCodeAgent } from './ask-code-agent.js';
import type { CodeJob } from './code-job.js';
import {
  assertReproductionKept,
  reproductionOf,
  withReproduction,
  writeReproductionFile,
} from './code-reproduction.js';
import { commitAndKeep } from './commit-and-keep.js';
import { resumeCode } from './resume-code.js';
import { earlier, issueOf, type StageEnv, type WorkspaceIo } from './stage-env.js';
import type { StageResult } from './stage-fn.js';

export async function codeStage(env: StageEnv): Promise<StageResult<CodeOutput>> {
  const plan = earlier(env, 'plan');
  const reproduced = reproductionOf(env);
  const issue = withReproduction(issueOf(env), reproduced);
  const output = await env.workspace((ws, io) =>
    codeInWorkspace({ env, ws, io, issue, plan, reproduced, git: gitOptions(env, io) }),
  );
  return { kind: 'continue', output };
}

function gitOptions(env: StageEnv, io: WorkspaceIo): CodeJob['git'] {
  return { ...(io.token ? { token: io.token } : {}), logger: env.log };
}

/** The stage in its workspace: rolled back (the kept commit deleted) when any step throws. */
async function codeInWorkspace(job: CodeJob): Promise<CodeOutput> {
  const { env, ws, git } = job;
  const { config } = env.facts;
  // Before any token is spent: no repository code will run without the sandbox.
  await checkSandbox(withRepoSandbox(env.sandbox, config.sandbox));
  // The repository's own secrets handed to its commands are masked like ours.
  env.redact.add(...passthroughValues(config.env_passthrough));
  try {
    const branch = await prepareRunBranch(env, ws, job.issue, job.plan.branch_name);
    const kept = await findKept(ws, env.facts.runId, git);
    if (kept) {
      ws.branch = { ...ws.branch!, kept };
      return resumeCode(ws, branch, kept, env.checkpoint.saved.code);
    }
    return await codeOnBranch(job, branch);
  } catch (err) {
    const report = await rollbackWorkspace(ws, git);
    if (report.problems.length > 0)
      env.log.warn({ problems: report.problems }, 'rollback incomplete');
    throw err;
  }
}

function prepareRunBranch(
  env: StageEnv,
  ws: Workspace,
  issue: IssueInput,
  name: string,
): Promise<PreparedBranch> {
  const { facts } = env;
  return prepareBranch(ws, {
    name,
    issue: issue.number,
    identity: DEFAULT_BOT_IDENTITY,
    mustExist: facts.feedback !== undefined,
    existing: facts.existingBranch,
    startOverHint: facts.startOverHint,
  });
}

/** A first attempt: the change, checked, committed and kept. */
async function codeOnBranch(job: CodeJob, branch: PreparedBranch): Promise<CodeOutput> {
  const { env, ws, reproduced } = job;
  await env.beforeCode?.();
  // The reproduction goes in first: the fix is validated with it and committed with it.
  if (reproduced) await writeReproductionFile(ws, reproduced);
  const code = await askCodeAgent(job);
  if (reproduced) await assertReproductionKept(ws, reproduced, code);
  // Nothing credential-shaped is committed, kept or published (issue #32).
  await refuseWorkspaceCredentials(
    ws,
    code.changes.map((c) => c.path),
    env.redact,
  );
  return commitAndKeep(job, code, branch);
}
