/**
 * `autofix code-commit` (README), run from a project directory:
 *
 *   1. read agent-config/query.txt + codeRollup.txt, check .gitignore and build.sh
 *   2. initial query → answer → edit engine (fenced-files, protected files) → ./build.sh
 *      (check-answer.ts)
 *   3. while the build fails, up to `maxRounds` repair queries (the default layout, or `--history`'s
 *      accumulating history) — a refused answer counts as a failed build; the rounds run on the
 *      shared repair loop (`pipeline/code/repair-loop.ts`), which keeps the failed rounds' records
 *
 * Everything lands in `logs/<start timestamp>/query-N.txt`, `-response.json`, `-response.txt`,
 * `-build.txt`, redacted; `&&&` notes go to stdout at once and to `llm-user-output.txt`.
 */
import { join } from 'node:path';
import { createRedactor, type Redactor } from '../../../artifacts/redact.js';
import { createRunLog } from '../../../artifacts/run-log.js';
import type { Settings } from '../../../config/env.js';
import { checkSandbox, cliSandbox, type SandboxMode } from '../../../exec/index.js';
import type { LlmClient } from '../../../llm/create-llm-client.js';
import type { AgentDefinition } from '../../../llm/parse-agent.js';
import type { ChatResult } from '../../../llm/types.js';
import type { Logger } from '../../../logger.js';
import { repairLoop } from '../../../pipeline/code/repair-loop.js';
import { modeHome } from '../mode-home.js';
import { loadModeAgent } from '../load-mode-agent.js';
import { assertGitProject } from './assert-git-project.js';
import { checkAnswer } from './check-answer.js';
import { codeCommitMessages } from './code-commit-messages.js';
import { createLoggedLlm } from './create-logged-llm.js';
import { readProjectInputs } from './read-project-inputs.js';
import type { BuildContext } from './run-build.js';
import type { CodeCommitPrompt, RoundRecord } from './types.js';

export interface CodeCommitOptions {
  projectDir: string;
  /** Repair rounds after the first query (default 3; `--history` users often pass 8). */
  maxRounds: number;
  /** `--history`: the accumulating repair prompt instead of the latest-only one. */
  history: boolean;
  model?: string;
  /** Names the log folder; the start of the run. */
  startedAt?: Date;
  buildTimeoutMs?: number;
  /** `none` only when the user typed `--sandbox none`. */
  sandbox?: SandboxMode;
}

export interface CodeCommitDeps {
  settings: Settings;
  /** Prints a line for the user at once (stdout): the `&&&` notes. */
  say: (text: string) => void;
  /** Progress lines (stderr). */
  progress: (text: string) => void;
  log: Logger;
}

export interface CodeCommitReport {
  passed: boolean;
  /** LLM queries made (1 + repair rounds used). */
  queries: number;
  logDir: string;
}

/** The build's context: the sandbox checked before any query is spent. */
async function buildContext(
  options: CodeCommitOptions,
  settings: Settings,
  redact: Redactor,
): Promise<BuildContext> {
  const sandbox = cliSandbox(settings, options.sandbox);
  await checkSandbox(sandbox, undefined, '--sandbox none');
  const build = { redact, sandbox, home: await modeHome(settings.workdir, options.projectDir) };
  if (options.buildTimeoutMs !== undefined)
    Object.assign(build, { timeoutMs: options.buildTimeoutMs });
  return build;
}

interface AskContext {
  options: CodeCommitOptions;
  progress: (text: string) => void;
  llm: LlmClient;
  model: string;
  agent: AgentDefinition;
  /** What every query shows: the task and the code rollup. */
  base: { query: string; codebase: string };
}

/** The initial query (round 0), or a repair query showing the failed rounds, oldest first. */
async function askQuery(
  ctx: AskContext,
  round: number,
  failures: readonly RoundRecord[],
): Promise<ChatResult> {
  const { options, agent, base } = ctx;
  const prompt: CodeCommitPrompt =
    round === 0
      ? { kind: 'initial', ...base }
      : { kind: options.history ? 'history' : 'repair', ...base, rounds: failures };
  ctx.progress(
    round === 0
      ? 'query 1: initial query'
      : `query ${round + 1}: repair round ${round} of ${options.maxRounds}`,
  );
  return ctx.llm.chat({
    model: ctx.model,
    messages: codeCommitMessages(agent, prompt),
    temperature: agent.temperature,
    stage: round === 0 ? 'code-commit' : 'code-commit-repair',
  });
}

export async function runCodeCommit(
  options: CodeCommitOptions,
  deps: CodeCommitDeps,
): Promise<CodeCommitReport> {
  const { projectDir } = options;
  const { settings } = deps;
  const inputs = await readProjectInputs(projectDir);
  await assertGitProject(projectDir);
  const agent = await loadModeAgent('code-commit');
  const model = options.model ?? settings.model;
  const stamp = (options.startedAt ?? new Date()).toISOString().replace(/[:.]/g, '-');
  const logDir = join(projectDir, 'logs', stamp);
  const redact = createRedactor(settings.secrets);
  const runLog = createRunLog(logDir, redact);
  // The `&&&` notes of every run accumulate in the project's llm-user-output.txt.
  const userLog = createRunLog(projectDir, redact);
  const llm = createLoggedLlm(settings, model, runLog, redact, deps.log);
  const build = await buildContext(options, settings, redact);
  const base = { query: inputs.query, codebase: inputs.codebase };
  const { say, progress } = deps;
  const asking = { options, progress, llm, model, agent, base };
  const checking = { projectDir, redact, build, runLog, userLog, say, progress };
  // A failed round's record is what the repair prompts show; the loop keeps them, oldest first.
  const outcome = await repairLoop<ChatResult, number, RoundRecord>(
    { maxRepairs: options.maxRounds },
    {
      ask: ({ round, failures }) => askQuery(asking, round, failures),
      check: (answer) => checkAnswer(checking, answer),
    },
  );
  return outcome.passed
    ? { passed: true, queries: outcome.value, logDir }
    : { passed: false, queries: options.maxRounds + 1, logDir };
}
