/**
 * The whole pipeline in one process (what `autofix run` does, DESIGN.md §1): triage → plan →
 * code → validate → commit (→ push) → PR text, over one workspace. Any failure rolls the
 * workspace back (worktree, local branch, and the remote branch if this run pushed it).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RepoConfig } from '../config/repo-config.js';
import type { Commit, FixPlan, TriageResult } from '../contracts.js';
import { detectStyle } from '../context/detect-style.js';
import { checkSandbox, withRepoSandbox, type SandboxPolicy } from '../exec/index.js';
import { prepareBranch } from '../git/branch.js';
import { DEFAULT_BOT_IDENTITY, type GitIdentity } from '../git/identity.js';
import { pushBranch } from '../git/push.js';
import { rollbackWorkspace } from '../git/rollback.js';
import {
  closeWorkspace,
  openWorkspace,
  type Workspace,
  type WorkspaceOptions,
} from '../git/workspace.js';
import { createCodeWorkspace, repoPathPolicy } from './code/code-workspace.js';
import { runCodeAgent, type CodePorts, type CodeResult } from './code/run-code-agent.js';
import { commitChange, planPathCheck } from './commit-change.js';
import { runPlanner } from './plan/run-planner.js';
import type { IssueInput, PipelinePorts, StepName } from './ports.js';
import { snapshotOverrides } from './snapshot-overrides.js';
import { prepareContext } from './prepare-context.js';
import { readGuidanceAtBase } from './read-guidance.js';
import { writePullRequest, type PullRequestText } from './pr/write-pull-request.js';
import { runTriage } from './triage/run-triage.js';

export interface RunIssueOptions {
  issue: IssueInput;
  config: RepoConfig;
  workspace: WorkspaceOptions;
  /** Model per stage (config `models.*`, else the default model). */
  model: (stage: 'triage' | 'plan' | 'code' | 'pr') => string;
  identity?: GitIdentity;
  /** Push the branch to the workspace's remote (the app: GitHub; `autofix run`: the local repo). */
  push: boolean;
  /** Stop after the plan: nothing is written. */
  dryRun?: boolean;
  contextBudget?: number;
  redact?: (text: string) => string;
  /** The operator's sandbox for repository commands. */
  sandbox: SandboxPolicy;
  runId?: string;
  /** Each validation run; returns the artifact that holds its log. */
  onValidation?: CodePorts['onValidation'];
  /**
   * An earlier run's branch for this issue, to start over from the base and replace (the user
   * asked for it); without it an existing branch for the plan's name is refused.
   */
  replaceBranch?: string;
}

export interface RunIssueResult {
  triage: TriageResult;
  plan: FixPlan;
  /** Absent on a dry run. */
  code?: CodeResult;
  commit?: Commit;
  pr?: PullRequestText;
  /** Stage reached when the run ended (for failure reports too). */
  stage: StepName;
}

export class RunFailure extends Error {
  constructor(
    readonly stage: StepName,
    readonly error: unknown,
    readonly partial: Partial<RunIssueResult>,
  ) {
    super(error instanceof Error ? error.message : String(error));
    this.name = 'RunFailure';
  }
}

export async function runIssue(
  options: RunIssueOptions,
  ports: PipelinePorts,
): Promise<RunIssueResult> {
  const { config } = options;
  let issue = options.issue;
  const partial: Partial<RunIssueResult> = {};
  let stage: StepName = 'triage';
  const step = async <T>(name: StepName, label: string, fn: () => Promise<T>): Promise<T> => {
    stage = name;
    ports.progress?.({ stage: name, status: 'start', message: label });
    const value = await fn();
    ports.progress?.({ stage: name, status: 'done', message: label });
    return value;
  };

  let ws: Workspace | undefined;
  try {
    ports.progress?.({ stage: 'workspace', status: 'start', message: 'preparing the workspace' });
    ws = await openWorkspace(options.workspace);
    const openedWs = ws;
    const worktree = ws.worktree;
    // The repository's guidance for agents, at the base commit, for every stage.
    const guidance = await readGuidanceAtBase(openedWs);
    if (guidance) issue = { ...issue, guidance };
    const context = await prepareContext(openedWs, issue, options.contextBudget);
    ports.progress?.({
      stage: 'workspace',
      status: 'done',
      message: `workspace ready at ${openedWs.base_commit.slice(0, 12)}`,
    });
    // The repository's prompt overrides, read at the base before any branch is checked out.
    ports = { ...ports, readOverride: ports.readOverride ?? (await snapshotOverrides(worktree)) };
    const policy = repoPathPolicy(config);

    partial.triage = await step('triage', 'triage', () =>
      runTriage({ issue, context, config, model: options.model('triage') }, ports),
    );
    const triage = partial.triage;
    partial.plan = await step('plan', 'plan', () =>
      runPlanner(
        {
          issue,
          triage,
          context,
          config,
          model: options.model('plan'),
          exists: (path) => existsSync(join(worktree, path)),
          checkPaths: planPathCheck(openedWs, policy),
        },
        ports,
      ),
    );
    if (options.replaceBranch)
      partial.plan = { ...partial.plan, branch_name: options.replaceBranch };
    const plan = partial.plan;
    if (options.dryRun) return { triage, plan, stage: 'plan' };

    const identity = options.identity ?? DEFAULT_BOT_IDENTITY;
    const openWs = ws;
    partial.code = await step('code', 'code', async () => {
      // Before any token is spent on code: no repository code will run without the sandbox.
      await checkSandbox(withRepoSandbox(options.sandbox, config.sandbox));
      await prepareBranch(openWs, {
        name: plan.branch_name,
        issue: issue.number,
        identity,
        existing: options.replaceBranch ? 'replace' : 'refuse',
        startOverHint: 'Run again with --fresh to start over from the base and replace it.',
      });
      const codeWs = createCodeWorkspace(openWs, config, {
        sandbox: options.sandbox,
        ...(options.redact ? { redact: options.redact } : {}),
        ...(ports.signal ? { signal: ports.signal } : {}),
        logger: ports.log,
      });
      const samples = await Promise.all(
        plan.file_changes.slice(0, 5).map((c) => codeWs.readFile(c.path)),
      );
      const style = await detectStyle(
        worktree,
        samples.filter((s): s is string => s !== undefined),
      );
      return runCodeAgent(
        {
          issue,
          plan,
          config,
          model: options.model('code'),
          style,
          codeContext: context.codeContext,
        },
        {
          ...ports,
          workspace: codeWs,
          ...(options.onValidation ? { onValidation: options.onValidation } : {}),
        },
      );
    });
    const code = partial.code;
    partial.commit = await step('commit', 'commit', async () => {
      const commit = await commitChange(openWs, {
        issue,
        plan,
        code,
        identity,
        logger: ports.log,
        ...(options.runId ? { runId: options.runId } : {}),
      });
      if (options.push)
        await pushBranch(openWs, {
          ...(options.workspace.token ? { token: options.workspace.token } : {}),
          logger: ports.log,
        });
      return commit;
    });
    const commit = partial.commit;
    const usage = ports.llm.usage.totals();
    partial.pr = await step('pr', 'pull request text', () =>
      writePullRequest(
        {
          issue,
          triage,
          plan,
          code,
          commit,
          model: options.model('pr'),
          usage: { totalTokens: usage.totalTokens, costUsd: usage.cost },
          ...(options.runId ? { runId: options.runId } : {}),
        },
        ports,
      ),
    );
    return { triage, plan, code, commit, pr: partial.pr, stage: 'pr' };
  } catch (err) {
    ports.progress?.({
      stage,
      status: 'failed',
      message: err instanceof Error ? err.message : String(err),
    });
    if (ws) {
      const report = await rollbackWorkspace(ws, {
        ...(options.workspace.token ? { token: options.workspace.token } : {}),
        logger: ports.log,
      });
      if (report.problems.length > 0)
        ports.log.warn({ problems: report.problems }, 'rollback incomplete');
    }
    throw new RunFailure(stage, err, partial);
  } finally {
    if (ws)
      await closeWorkspace(ws, ports.log).catch((e: unknown) =>
        ports.log.warn({ err: String(e) }, 'workspace cleanup failed'),
      );
  }
}
