/**
 * Reproduce (issue #17): for a bug, a new test that fails on the base commit for the reason the
 * issue gives; the code stage commits it with the fix and must make it pass. `reproduce` in the
 * repository config: `auto` (bugs, in repositories with `validate` commands; without a test the
 * run says so and goes on), `required` (the run stops without one), `off`.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ReproductionOutput } from '../../contracts.js';
import { checkSandbox, withRepoSandbox } from '../../exec/index.js';
import { openRepoFiles } from '../../repo-files/open-repo-files.js';
import { createCodeWorkspace, repoPathPolicy } from '../code/code-workspace.js';
import { setupFailed } from '../code/root-cause.js';
import { planPathCheck } from '../commit-change.js';
import { repositorySigns, testExamples } from '../reproduce/repository-signs.js';
import { runnersFor } from '../reproduce/test-runners.js';
import { writeReproduction } from '../reproduce/write-reproduction.js';
import { earlier, issueOf, signalOf, type StageEnv } from './stage-env.js';
import type { StageResult } from './stage-fn.js';

const REPRO_TIMEOUT_S = 120;

export async function reproduceStage(env: StageEnv): Promise<StageResult<ReproductionOutput>> {
  const started = Date.now();
  const { facts } = env;
  const { config } = facts;
  const triage = earlier(env, 'triage');
  const plan = earlier(env, 'plan');
  const done = (
    output: Omit<
      Extract<ReproductionOutput, { status: 'skipped' | 'not-reproduced' }>,
      'duration_ms'
    >,
  ): StageResult<ReproductionOutput> => ({
    kind: 'continue',
    output: { ...output, duration_ms: Date.now() - started },
  });
  if (config.reproduce === 'off') return done({ status: 'skipped', reason: 'reproduce: off' });
  if (facts.feedback) {
    return done({ status: 'skipped', reason: 'a commit on an open pull request' });
  }
  if (config.reproduce === 'auto' && triage.classification !== 'fix') {
    return done({ status: 'skipped', reason: `triaged as ${triage.classification}, not a bug` });
  }
  if (config.reproduce === 'auto' && config.validate.length === 0) {
    return done({ status: 'skipped', reason: 'no `validate` commands to run tests with' });
  }
  const issue = issueOf(env);
  const result = await env.workspace(async (ws, io) => {
    // Before any token is spent: no repository code will run without the sandbox.
    await checkSandbox(withRepoSandbox(env.sandbox, config.sandbox));
    const signs = await repositorySigns(ws, [...config.setup, ...config.validate]);
    const runners = runnersFor(signs);
    if (runners.length === 0) {
      return {
        ok: false as const,
        reason: 'No test runner was found in the repository to run a reproduction with.',
      };
    }
    const codeWs = (validate: string[]) =>
      createCodeWorkspace(
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
    // Setup first, once: a failing one is the configuration's fault (SETUP_FAILED, the same
    // report as the code stage's), never a reason to blame the model's test or ask again.
    const setup = await codeWs([]).setup({});
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
      {
        llm: env.llm,
        log: env.log,
        readOverride: io.readOverride,
        ...signalOf(env),
        checkPath: (path) => planPathCheck(ws, repoPathPolicy(config))([path]),
        // Anything there, a dangling link included (`existsSync` follows links).
        exists: (path) => openRepoFiles(ws.worktree).entryKind(path) !== undefined,
        runTest: async (file, command) => {
          const abs = join(ws.worktree, file.path);
          await mkdir(dirname(abs), { recursive: true });
          await writeFile(abs, file.content);
          try {
            const run = await codeWs([command]).validate({
              skipSetup: true,
              tolerate: () => undefined,
            });
            return run.results.at(-1)!;
          } finally {
            // The code stage writes it again under the fix; this workspace stays at the base.
            await rm(abs, { force: true });
          }
        },
      },
    );
  });
  if (!result.ok) {
    if (config.reproduce === 'required') {
      return {
        kind: 'stop',
        reason: `${result.reason} The repository requires one (\`reproduce: required\`), so no fix was attempted.`,
      };
    }
    return done({ status: 'not-reproduced', reason: result.reason });
  }
  return {
    kind: 'continue',
    output: { status: 'reproduced', ...result.reproduction, duration_ms: Date.now() - started },
  };
}
