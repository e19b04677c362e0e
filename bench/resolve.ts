/**
 * `npm run bench:resolve`: does the whole pipeline resolve real issues, and at what cost, for each
 * code strategy? For each task of `bench/resolve/tasks.jsonl` (Multi-SWE-bench issues of
 * iamkun/dayjs, see resolve/README.md) and each strategy, the repository is checked out at the
 * fix's base with the task's `.github/autofix.yml` committed on top (`code_strategy`), the
 * dependencies are installed outside the pipeline, `autofix run` runs on it through the compiled
 * CLI against the endpoint, and its commit is judged by the upstream tests (`resolve/judge.ts`).
 *
 * Usage: --base-url URL --model NAME [--api-key-env VAR (default OPENAI_API_KEY)] [--tasks FILE]
 * [--only TEXT] [--limit N] [--strategies one-shot,tools] [--workdir DIR] [--mirrors DIR]
 * [--sandbox bwrap|none] [--control (also judge each base commit as it is: resolves nothing)]
 * [--json FILE]; or --replay (no endpoint: a scripted model answers each
 * stage with the task's upstream fix, `resolve/replay-model.ts`). Last line:
 * `SUMMARY resolve tasks=N one_shot_resolved=… tools_resolved=… one_shot_cost_usd=… …`.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CODE_STRATEGIES, type CodeStrategy } from '../src/config/repo-config.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../fakes/llm/index.js';
import { judge } from './resolve/judge.js';
import { git, installDeps, prepareRepo } from './resolve/prepare.js';
import { replayAnswer } from './resolve/replay-model.js';
import { perTask, summaryLine, table, taskLine, type TaskResult } from './resolve/report.js';
import { runPipeline, type PipelineOptions, type PipelineResult } from './resolve/run-pipeline.js';
import { sandboxMode } from './resolve/sandbox-mode.js';
import { loadTasks, type ResolveTask } from './resolve/tasks.js';

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const REPLAY = process.argv.includes('--replay');
const TASKS =
  flag('tasks') ?? fileURLToPath(new URL('../../bench/resolve/tasks.jsonl', import.meta.url));
const ONLY = flag('only');
const LIMIT = flag('limit') ? Number(flag('limit')) : undefined;
const MIRRORS = flag('mirrors') ?? '/work/.mirror';
const WORKDIR = flag('workdir') ?? join(tmpdir(), 'autofix-bench-resolve');
const JSON_OUT = flag('json');
/** Also judge each base commit as it is (no run): its fail-to-pass tests must fail. */
const CONTROL = process.argv.includes('--control');
const log = (line: string): void => void process.stderr.write(`${line}\n`);

function strategies(): CodeStrategy[] {
  const list = (flag('strategies') ?? 'one-shot,tools').split(',').map((s) => s.trim());
  for (const s of list)
    if (!(CODE_STRATEGIES as readonly string[]).includes(s))
      throw new Error(`--strategies: unknown strategy ${s} (one of ${CODE_STRATEGIES.join(', ')})`);
  return list as CodeStrategy[];
}

/** Fails early, with the URL, when nothing answers at the endpoint. */
async function checkEndpoint(baseUrl: string): Promise<void> {
  try {
    await fetch(`${baseUrl.replace(/\/$/, '')}/models`, { signal: AbortSignal.timeout(10_000) });
  } catch (err) {
    throw new Error(
      `no OpenAI-compatible endpoint answers at ${baseUrl} (${(err as Error).message}); pass --base-url, or --replay`,
    );
  }
}

let current: ResolveTask | undefined;

async function endpoint(): Promise<{ options: PipelineOptions; llm?: ScriptedLlmServer }> {
  const home = join(WORKDIR, 'autofix-home');
  const sandbox = sandboxMode(flag('sandbox'), log);
  if (REPLAY) {
    const llm = await startScriptedLlmServer({ respond: (req) => replayAnswer(req, current) });
    return {
      llm,
      options: { baseUrl: llm.baseUrl, model: 'replay', apiKey: undefined, sandbox, home },
    };
  }
  const baseUrl = flag('base-url');
  const model = flag('model');
  if (!baseUrl || !model) throw new Error('give --base-url URL and --model NAME, or --replay');
  await checkEndpoint(baseUrl);
  const keyVar = flag('api-key-env') ?? 'OPENAI_API_KEY';
  const apiKey = process.env[keyVar];
  if (!apiKey) log(`${keyVar} is not set: the endpoint is asked without a key`);
  return { options: { baseUrl, model, apiKey, sandbox, home } };
}

/** The base commit judged as it is, for `--control`: shows the tests tell a fix from none. */
const NO_RUN: PipelineResult = {
  exitCode: 0,
  seconds: 0,
  outcome: 'no run',
  tokens: 0,
  promptTokens: 0,
  completionTokens: 0,
  costUsd: 0,
  unpricedModels: [],
  artifacts: '',
};

async function runTask(
  task: ResolveTask,
  strategy: CodeStrategy | 'base',
  options: PipelineOptions,
): Promise<TaskResult> {
  const depsDir = installDeps(task, MIRRORS, WORKDIR, log);
  const runDir = join(WORKDIR, 'runs', `${task.id}.${strategy}`);
  const repoDir = join(runDir, 'repo');
  rmSync(runDir, { recursive: true, force: true });
  mkdirSync(runDir, { recursive: true });
  prepareRepo(task, strategy === 'base' ? 'one-shot' : strategy, MIRRORS, repoDir);
  if (strategy === 'base') {
    const verdict = await judge(
      task,
      repoDir,
      git(repoDir, ['rev-parse', 'HEAD']).trim(),
      depsDir,
      runDir,
    );
    return { id: task.id, strategy, run: NO_RUN, verdict };
  }
  current = task;
  const run = await runPipeline(task, repoDir, runDir, options);
  current = undefined;
  const verdict = await judge(task, repoDir, run.commit?.sha, depsDir, runDir);
  return { id: task.id, strategy, run, verdict };
}

async function main(): Promise<void> {
  const chosen: (CodeStrategy | 'base')[] = [
    ...(CONTROL ? ['base' as const] : []),
    ...strategies(),
  ];
  const tasks = loadTasks(TASKS, ONLY, LIMIT);
  if (tasks.length === 0) throw new Error(`no task in ${TASKS} matches`);
  const { options, llm } = await endpoint();
  log(
    `${tasks.length} tasks × ${chosen.join(', ')}; model ${options.model} at ${options.baseUrl}; sandbox ${options.sandbox}; workdir ${WORKDIR}`,
  );
  const results: TaskResult[] = [];
  try {
    for (const [n, task] of tasks.entries())
      for (const strategy of chosen) {
        const r = await runTask(task, strategy, options);
        results.push(r);
        log(`[${n + 1}/${tasks.length}] ${taskLine(r)}`);
      }
  } finally {
    await llm?.close();
  }
  if (JSON_OUT) await writeFile(JSON_OUT, JSON.stringify(results, null, 2));
  const unpriced = [...new Set(results.flatMap((r) => r.run.unpricedModels))];
  process.stdout.write(`${perTask(results)}\n\n${table(results, chosen)}\n`);
  if (unpriced.length)
    process.stdout.write(`(no known price for ${unpriced.join(', ')}: counted as $0)\n`);
  process.stdout.write(`${summaryLine(results, strategies(), tasks.length)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:resolve: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
