/**
 * Reproduce (issue #17): for a bug, a new test that fails on the base commit for the reason the
 * issue gives; the code stage commits it with the fix and must make it pass. `reproduce` in the
 * repository config: `auto` (bugs, in repositories with `validate` commands; without a test the
 * run says so and goes on), `required` (the run stops without one), `off`.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ReproductionOutput } from '../../contracts.js';
import { checkSandbox, withRepoSandbox } from '../../exec/index.js';
import { runGit } from '../../git/run-git.js';
import type { Workspace } from '../../git/workspace.js';
import { createCodeWorkspace, repoPathPolicy } from '../code/code-workspace.js';
import { setupFailed } from '../code/root-cause.js';
import { planPathCheck } from '../commit-change.js';
import { runnersFor } from '../reproduce/test-runners.js';
import { writeReproduction } from '../reproduce/write-reproduction.js';
import { earlier, issueOf, signalOf, type StageEnv } from './stage-env.js';
import type { StageResult } from './stage-table.js';

const TEST_FILE =
  /(^|\/)(tests?|spec|__tests__)\/.+\.[cm]?[jt]sx?$|[._-](test|spec)\.[cm]?[jt]sx?$|(^|\/)test_[^/]+\.py$/;
const EXAMPLE_LINES = 60;
const REPRO_TIMEOUT_S = 120;

/** What the repository shows of its test runners: package.json's dependencies, its files. */
async function repositorySigns(ws: Workspace, commands: string[]) {
  const files = (await runGit(['ls-files', '-z'], { cwd: ws.worktree })).stdout
    .split('\0')
    .filter(Boolean);
  let dependencies: string[] = [];
  try {
    const pkg = JSON.parse(await readFile(join(ws.worktree, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const names = (v: unknown) => (v && typeof v === 'object' ? Object.keys(v) : []);
    dependencies = [...names(pkg.dependencies), ...names(pkg.devDependencies)];
    const scripts =
      pkg.scripts && typeof pkg.scripts === 'object' ? Object.values(pkg.scripts) : [];
    commands = [...commands, ...scripts.filter((s): s is string => typeof s === 'string')];
  } catch {
    // no package.json, or not JSON: no JavaScript runner signs
  }
  return { files, dependencies, commands };
}

/** Two existing test files, abridged, nearest the plan's files first: the repository's style. */
async function testExamples(ws: Workspace, files: string[], near: string[]): Promise<string> {
  const tests = files.filter((f) => TEST_FILE.test(f));
  const stem = (p: string) =>
    p
      .split('/')
      .pop()!
      .replace(/\.[^.]+$/, '');
  const score = (t: string) => (near.some((n) => t.includes(stem(n))) ? 0 : 1);
  const picked = [...tests].sort((a, b) => score(a) - score(b) || a.length - b.length).slice(0, 2);
  const shown = await Promise.all(
    picked.map(async (path) => {
      const text = await readFile(join(ws.worktree, path), 'utf8').catch(() => '');
      const lines = text.split('\n');
      const cut = lines.length > EXAMPLE_LINES ? '\n… (cut)' : '';
      return `### ${path}\n${lines.slice(0, EXAMPLE_LINES).join('\n')}${cut}`;
    }),
  );
  return shown.join('\n\n');
}

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
          ws,
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
        exists: (path) => existsSync(join(ws.worktree, path)),
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
