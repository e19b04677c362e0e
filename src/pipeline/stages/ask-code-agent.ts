/**
 * The code stage's call of the code agent (`pipeline/code/run-code-agent.ts`): the workspace it
 * edits and validates in, the repository's style, the ranked context, and the tool loop's options
 * when it works with tools.
 */
import { detectStyle, type StyleConfig } from '../../context/detect-style.js';
import type { FixPlan } from '../../contracts.js';
import type { Workspace } from '../../git/workspace.js';
import { supportsTools } from '../../llm/tool-support.js';
import { createCodeWorkspace } from '../code/code-workspace.js';
import { runCodeAgent, type CodeResult, type CodeWorkspace } from '../code/run-code-agent.js';
import type { ToolRoundsOptions } from '../code/tool-rounds.js';
import type { RepoContext } from '../ports.js';
import { repositorySigns } from '../reproduce/repository-signs.js';
import { runnersFor } from '../reproduce/test-runners.js';
import type { CodeJob } from './code-job.js';
import { signalOf, type StageEnv } from './stage-env.js';

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

/** The repository's style, from the first planned files that exist. */
async function styleOf(ws: Workspace, codeWs: CodeWorkspace, plan: FixPlan): Promise<StyleConfig> {
  const samples = await Promise.all(
    plan.file_changes.slice(0, 5).map((c) => codeWs.readFile(c.path)),
  );
  return detectStyle(
    ws.worktree,
    samples.filter((s): s is string => s !== undefined),
  );
}

/** The change, validated in the sandbox (the reproduction's command must pass too). */
export async function askCodeAgent(job: CodeJob): Promise<CodeResult> {
  const { env, ws, io, issue, plan, reproduced } = job;
  const { config } = env.facts;
  const codeWs = createCodeWorkspace(
    ws,
    config,
    { sandbox: env.sandbox, redact: env.redact, ...signalOf(env), logger: env.log },
    reproduced ? [reproduced.command] : [],
  );
  const style = await styleOf(ws, codeWs, plan);
  const context = await env.context(ws, issue);
  const tools = await toolsFor(env, ws, context);
  return runCodeAgent(
    {
      issue,
      plan,
      config,
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
}
