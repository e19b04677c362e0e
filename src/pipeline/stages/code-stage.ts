/**
 * Code: the change, validated in the sandbox, committed on the run's branch in the workspace and
 * kept on the run's private ref (git/keep-commit.ts) — not published: the branch on the remote
 * moves only in the last stage. Any failure here rolls the workspace back (and deletes what it
 * kept) before it is thrown.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { CodeOutput, Reproduction } from '../../contracts.js';
import { AutofixError } from '../../errors.js';
import type { Workspace } from '../../git/workspace.js';
import { openRepoFiles } from '../../repo-files/open-repo-files.js';
import type { IssueInput, RepoContext } from '../ports.js';
import { detectStyle } from '../../context/detect-style.js';
import { checkSandbox, passthroughValues, withRepoSandbox } from '../../exec/index.js';
import { prepareBranch } from '../../git/branch.js';
import { DEFAULT_BOT_IDENTITY, REPRODUCTION_TRAILER } from '../../git/identity.js';
import { findKept, keepCommit, keptRefOf } from '../../git/keep-commit.js';
import { rollbackWorkspace } from '../../git/rollback.js';
import { refuseWorkspaceCredentials } from '../../secrets/refuse-workspace-credentials.js';
import { createCodeWorkspace } from '../code/code-workspace.js';
import { runCodeAgent, type CodeResult } from '../code/run-code-agent.js';
import type { ToolRoundsOptions } from '../code/tool-rounds.js';
import { supportsTools } from '../../llm/tool-support.js';
import { repositorySigns } from '../reproduce/repository-signs.js';
import { runnersFor } from '../reproduce/test-runners.js';
import { commitChange } from '../commit-change.js';
import { toCodeOutput } from './code-output.js';
import { resumeCode } from './resume-code.js';
import { earlier, issueOf, signalOf, type StageEnv } from './stage-env.js';
import type { StageResult } from './stage-fn.js';

/** The code agent is told about the test it must make pass, and never to edit it. */
function withReproduction(issue: IssueInput, r: Reproduction | undefined): IssueInput {
  if (!r) return issue;
  const note =
    `A test that reproduces the bug was written before the fix: \`${r.path}\` ` +
    `(\`${r.command}\`). It fails on the current code; the fix must make it pass. Do not edit it.`;
  return { ...issue, instructions: issue.instructions ? `${issue.instructions}\n\n${note}` : note };
}

async function writeReproductionFile(ws: Workspace, r: Reproduction): Promise<void> {
  const abs = join(ws.worktree, r.path);
  await mkdir(dirname(abs), { recursive: true });
  await writeFile(abs, r.content);
}

/** The fix may not pass by editing the test: the file is as the reproduce stage ran it, and committed. */
async function assertReproductionKept(
  ws: Workspace,
  r: Reproduction,
  code: CodeResult,
): Promise<void> {
  const read = await openRepoFiles(ws.worktree).readText(r.path);
  const now = read.ok ? read.text : undefined;
  if (now !== r.content) {
    throw new AutofixError(
      'VALIDATION_FAILED',
      `the change ${now === undefined ? 'deleted' : 'edited'} the reproduction test \`${r.path}\`; a fix must make it pass as written`,
      { recoverable: false },
    );
  }
  code.changes = [
    ...code.changes.filter((c) => c.path !== r.path),
    { path: r.path, operation: 'created' },
  ];
}

/**
 * The tool loop's options when the code agent works with tools (`code_strategy: tools`, or `auto`
 * and the endpoint answers tool calls); undefined for one-shot.
 */
async function toolsFor(
  env: StageEnv,
  ws: Workspace,
  context: Pick<RepoContext, 'ranked' | 'next'>,
): Promise<ToolRoundsOptions | undefined> {
  const { config } = env.facts;
  const strategy = config.code_strategy;
  if (strategy === 'one-shot') return undefined;
  if (strategy === 'auto' && !(await supportsTools(env.llm, env.model('code'), env.signal)))
    return undefined;
  const signs = await repositorySigns(ws, [...config.setup, ...config.validate]);
  return {
    checkout: { worktree: ws.worktree, gitDir: ws.gitDir },
    testRunners: runnersFor(signs),
    ranked: context.ranked,
    next: context.next,
  };
}

export async function codeStage(env: StageEnv): Promise<StageResult<CodeOutput>> {
  const { facts } = env;
  const plan = earlier(env, 'plan');
  const reproduced =
    env.outputs.reproduce?.status === 'reproduced' ? env.outputs.reproduce : undefined;
  const issue = withReproduction(issueOf(env), reproduced);
  const output = await env.workspace(async (ws, io) => {
    const git = { ...(io.token ? { token: io.token } : {}), logger: env.log };
    // Before any token is spent: no repository code will run without the sandbox.
    await checkSandbox(withRepoSandbox(env.sandbox, facts.config.sandbox));
    // The repository's own secrets handed to its commands are masked like ours.
    env.redact.add(...passthroughValues(facts.config.env_passthrough));
    try {
      const branch = await prepareBranch(ws, {
        name: plan.branch_name,
        issue: issue.number,
        identity: DEFAULT_BOT_IDENTITY,
        mustExist: facts.feedback !== undefined,
        existing: facts.existingBranch,
        startOverHint: facts.startOverHint,
      });
      const kept = await findKept(ws, facts.runId, git);
      if (kept) {
        ws.branch = { ...ws.branch!, kept };
        return resumeCode(ws, branch, kept, env.checkpoint.saved.code);
      }
      await env.beforeCode?.();
      // The reproduction goes in first: the fix is validated with it and committed with it.
      if (reproduced) await writeReproductionFile(ws, reproduced);
      const codeWs = createCodeWorkspace(
        ws,
        facts.config,
        { sandbox: env.sandbox, redact: env.redact, ...signalOf(env), logger: env.log },
        reproduced ? [reproduced.command] : [],
      );
      const samples = await Promise.all(
        plan.file_changes.slice(0, 5).map((c) => codeWs.readFile(c.path)),
      );
      const style = await detectStyle(
        ws.worktree,
        samples.filter((s): s is string => s !== undefined),
      );
      const context = await env.context(ws, issue);
      const tools = await toolsFor(env, ws, context);
      const code = await runCodeAgent(
        {
          issue,
          plan,
          config: facts.config,
          model: env.model('code'),
          style,
          codeContext: context.codeContext,
          ...(tools ? { tools } : {}),
        },
        {
          llm: env.llm,
          log: env.log,
          readOverride: io.readOverride,
          ...signalOf(env),
          ...(env.progress ? { progress: env.progress } : {}),
          workspace: codeWs,
          ...(env.onValidation ? { onValidation: env.onValidation } : {}),
        },
      );
      if (reproduced) await assertReproductionKept(ws, reproduced, code);
      // Nothing credential-shaped is committed, kept or published (issue #32).
      await refuseWorkspaceCredentials(
        ws,
        code.changes.map((c) => c.path),
        env.redact,
      );
      env.progress?.({ stage: 'commit', status: 'start', message: 'commit' });
      const commit = await commitChange(ws, {
        issue,
        plan,
        code,
        identity: DEFAULT_BOT_IDENTITY,
        logger: env.log,
        runId: facts.runId,
        trailers: [
          ...(facts.commitTrailers ?? []),
          // A re-run of the verification finds the reproduction's command here.
          ...(reproduced
            ? [{ key: REPRODUCTION_TRAILER, value: reproduced.command.replace(/\s+/g, ' ') }]
            : []),
        ],
      });
      const result = toCodeOutput(commit, code, {
        name: branch.name,
        remoteShaBefore: branch.remoteShaBefore,
        kept: { ref: keptRefOf(facts.runId), sha: commit.sha },
      });
      if (branch.replaced) {
        result.code.warnings = [
          ...result.code.warnings,
          `Started over from ${facts.baseBranch}: the branch \`${branch.name}\` (was ${branch.replaced.slice(0, 12)}, an earlier run's) is replaced by this run's commit.`,
        ];
      }
      // Before the keep: a retry after a keep that outlived its job goes on from here.
      await env.checkpoint.save({ code: result });
      await keepCommit(ws, facts.runId, git);
      env.progress?.({ stage: 'commit', status: 'done', message: 'commit' });
      return result;
    } catch (err) {
      const report = await rollbackWorkspace(ws, git);
      if (report.problems.length > 0)
        env.log.warn({ problems: report.problems }, 'rollback incomplete');
      throw err;
    }
  });
  return { kind: 'continue', output };
}
