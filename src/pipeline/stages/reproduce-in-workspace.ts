/**
 * The reproduce stage's work in its workspace at the base commit: the sandbox checked, a test
 * runner found, `setup` run once, then the reproducer (`pipeline/reproduce/write-reproduction.ts`)
 * with ports that check a test's path and run it on the base commit.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { CommandResult, FixPlan, TriageResult } from '../../contracts.js';
import { checkSandbox, withRepoSandbox } from '../../exec/index.js';
import type { Workspace } from '../../git/workspace.js';
import { openRepoFiles } from '../../repo-files/open-repo-files.js';
import { createCodeWorkspace, repoPathPolicy } from '../code/code-workspace.js';
import { commandProgress } from '../code/command-progress.js';
import type { CodeWorkspace } from '../code/run-code-agent.js';
import { setupFailed } from '../code/root-cause.js';
import { planPathCheck } from '../commit-change.js';
import type { IssueInput } from '../ports.js';
import { repositorySigns, testExamples } from '../reproduce/repository-signs.js';
import { runnersFor } from '../reproduce/test-runners.js';
import {
  writeReproduction,
  type ReproducePorts,
  type ReproduceResult,
} from '../reproduce/write-reproduction.js';
import { signalOf, type StageEnv, type WorkspaceIo } from './stage-env.js';

const REPRO_TIMEOUT_S = 120;

/** The workspace's commands under the repository's config, with these `validate` commands. */
function workspaceFor(env: StageEnv, ws: Workspace, validate: string[]): CodeWorkspace {
  const { config } = env.facts;
  return createCodeWorkspace(
    ws,
    {
      ...config,
      validate,
      baseline: false,
      // One test file: minutes mean it hangs (on the network `validate` does not have).
      // `setup` (validate empty) keeps the repository's own limit.
      ...(validate.length > 0
        ? { command_timeout_seconds: Math.min(config.command_timeout_seconds, REPRO_TIMEOUT_S) }
        : {}),
    },
    { sandbox: env.sandbox, redact: env.redact, ...signalOf(env), logger: env.log },
  );
}

/** Writes the test file, runs its command on the base commit, removes the file. */
async function runTestAtBase(
  env: StageEnv,
  ws: Workspace,
  file: { path: string; content: string },
  command: string,
): Promise<CommandResult> {
  const abs = join(ws.worktree, file.path);
  await mkdir(dirname(abs), { recursive: true });
  await writeFile(abs, file.content);
  try {
    const run = await workspaceFor(env, ws, [command]).validate({
      skipSetup: true,
      tolerate: () => undefined,
    });
    return run.results.at(-1)!;
  } finally {
    // The code stage writes it again under the fix; this workspace stays at the base.
    await rm(abs, { force: true });
  }
}

function reproducePorts(env: StageEnv, ws: Workspace, io: WorkspaceIo): ReproducePorts {
  const { config } = env.facts;
  return {
    llm: env.llm,
    log: env.log,
    readOverride: io.readOverride,
    ...signalOf(env),
    checkPath: (path) => planPathCheck(ws, repoPathPolicy(config))([path]),
    // Anything there, a dangling link included (`existsSync` follows links).
    exists: (path) => openRepoFiles(ws.worktree).entryKind(path) !== undefined,
    runTest: (file, command) => runTestAtBase(env, ws, file, command),
  };
}

/** What the reproducer is asked about: the issue and the earlier stages' verdicts. */
export interface ReproduceAsk {
  issue: IssueInput;
  triage: TriageResult;
  plan: FixPlan;
}

export async function reproduceInWorkspace(
  env: StageEnv,
  ws: Workspace,
  io: WorkspaceIo,
  { issue, triage, plan }: ReproduceAsk,
): Promise<ReproduceResult> {
  const { config } = env.facts;
  // Before any token is spent: no repository code will run without the sandbox.
  await checkSandbox(withRepoSandbox(env.sandbox, config.sandbox));
  const signs = await repositorySigns(ws, [...config.setup, ...config.validate]);
  const runners = runnersFor(signs);
  if (runners.length === 0) {
    return {
      ok: false,
      reason: 'No test runner was found in the repository to run a reproduction with.',
    };
  }
  // Setup first, once: a failing one is the configuration's fault (SETUP_FAILED, the same
  // report as the code stage's), never a reason to blame the model's test or ask again.
  // Shown as it runs: it comes before the code stage's (which runs it again in its workspace).
  const setup = await workspaceFor(env, ws, []).setup(commandProgress(env.progress, 'setup'));
  if (setup && !setup.passed) throw setupFailed(setup, env.onValidation?.(setup, 'setup'));
  return writeReproduction(
    {
      issue,
      triage,
      plan,
      config,
      model: env.model('reproduce'),
      context: await env.context(ws, issue),
      runners,
      examples: await testExamples(
        openRepoFiles(ws.worktree),
        signs.files,
        plan.file_changes.map((c) => c.path),
      ),
    },
    reproducePorts(env, ws, io),
  );
}
