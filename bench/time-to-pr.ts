/**
 * `npm run bench:time-to-pr`: how long from the trigger to the pull request's commit, by stage,
 * on real upstream fixes replayed through the whole pipeline. Each task of
 * `bench/resolve/tasks.jsonl` (iamkun/dayjs issues, resolve/README.md) runs `autofix run` (the
 * compiled CLI, the bwrap sandbox) at its base with `setup` = the task's install and `validate` =
 * the task's own test file, against the replay model (`resolve/replay-model.ts`: it answers each
 * stage at once with the upstream fix), so the time is the pipeline's own: workspace, ranking,
 * setup, baseline, the reproducer's attempt, validation, commit. Every run shares one
 * `AUTOFIX_WORKDIR`, made empty at the start: the first run meets the repository for the first
 * time (cold); every later one runs on a repository seen before, the figure the goal is about.
 *
 * Usage: [--tasks FILE] [--only TEXT] [--limit N] [--rounds N (default 1)] [--workdir DIR]
 * [--mirrors DIR] [--sandbox bwrap|none] [--strategy one-shot|tools] [--json FILE]. Last line:
 * `SUMMARY time-to-pr runs=N cold_s=… p50_s=… p90_s=… setup_p50_s=… installs_max=… …`.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedLlmServer } from '../fakes/llm/index.js';
import { prepareRepo } from './resolve/prepare.js';
import { replayAnswer } from './resolve/replay-model.js';
import { runPipeline, type PipelineOptions } from './resolve/run-pipeline.js';
import { sandboxMode } from './resolve/sandbox-mode.js';
import { loadTasks, type ResolveTask } from './resolve/tasks.js';
import { percentile } from './sandbox/timings.js';
import {
  stageTimes,
  TOP_STAGES,
  type StageEvent,
  type StageTimes,
} from './time-to-pr/stage-times.js';

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const TASKS =
  flag('tasks') ?? fileURLToPath(new URL('../../bench/resolve/tasks.jsonl', import.meta.url));
const ROUNDS = Number(flag('rounds') ?? 1);
const WORKDIR = flag('workdir') ?? join(tmpdir(), 'autofix-bench-time-to-pr');
const MIRRORS = flag('mirrors') ?? '/work/.mirror';
const STRATEGY = flag('strategy') ?? 'one-shot';
const log = (line: string): void => void process.stderr.write(`${line}\n`);

interface RunTime {
  id: string;
  round: number;
  outcome: string;
  reason?: string;
  times: StageTimes;
}

/** The task as this bench runs it: its install as `setup`, its own test file as `validate`. */
function withChecks(task: ResolveTask): ResolveTask {
  return {
    ...task,
    setup: task.setup ?? task.install,
    validate: task.validate ?? task.test.map((c) => c.replace(/\s--verbose\b/, '')),
  };
}

async function runOne(
  task: ResolveTask,
  round: number,
  options: PipelineOptions,
): Promise<RunTime> {
  const runDir = join(WORKDIR, 'runs', `${task.id}.${round}`);
  rmSync(runDir, { recursive: true, force: true });
  mkdirSync(runDir, { recursive: true });
  // One checkout path for every run: `autofix run` knows a repository by its path, as a user's
  // checkout is, so a later task meets the repository it has seen.
  const repoDir = join(WORKDIR, 'checkout', task.repo.replace('/', '+'));
  rmSync(repoDir, { recursive: true, force: true });
  prepareRepo(task, STRATEGY === 'tools' ? 'tools' : 'one-shot', MIRRORS, repoDir);
  const run = await runPipeline(task, repoDir, runDir, options);
  let events: StageEvent[] = [];
  try {
    const summary = JSON.parse(readFileSync(join(run.artifacts, 'summary.json'), 'utf8')) as {
      stages: StageEvent[];
    };
    events = summary.stages;
  } catch {
    // no summary: the run's time stays 0 by stage, its outcome says why
  }
  const times = stageTimes(events);
  // The whole CLI run, start-up included, is the figure; the stages split what they saw of it.
  times.totalMs = Math.round(run.seconds * 1000);
  return {
    id: task.id,
    round,
    outcome: run.outcome,
    ...(run.reason ? { reason: run.reason } : {}),
    times,
  };
}

const s = (ms: number): string => (ms / 1000).toFixed(1);

function runLine(r: RunTime, first: boolean): string {
  const t = r.times;
  const stages = TOP_STAGES.map((st) => s(t.stages[st]).padStart(6)).join('');
  return `${r.id.padEnd(22)} ${String(r.round).padStart(2)} ${(first ? 'cold' : 'seen').padEnd(5)}${s(t.totalMs).padStart(7)}${stages}${s(t.setupMs).padStart(7)} ${String(t.setupRuns - t.setupRestores)}/${String(t.setupRestores)}${s(t.validateMs).padStart(8)}  ${r.outcome}${r.reason ? ` (${r.reason.slice(0, 80)})` : ''}`;
}

function header(): string {
  return `${'task'.padEnd(22)} rd repo ${'total'.padStart(6)}${TOP_STAGES.map((st) => st.slice(0, 5).padStart(6)).join('')}${'setup'.padStart(7)} i/r${'validate'.padStart(8)}  outcome`;
}

function quantiles(runs: RunTime[]): string[] {
  const row = (name: string, pick: (t: StageTimes) => number): string => {
    const xs = runs.map((r) => pick(r.times));
    return `${name.padEnd(10)}${s(percentile(xs, 50)).padStart(7)}${s(percentile(xs, 90)).padStart(7)}`;
  };
  return [
    `${'seen (s)'.padEnd(10)}${'p50'.padStart(7)}${'p90'.padStart(7)}`,
    row('total', (t) => t.totalMs),
    ...TOP_STAGES.map((st) => row(st, (t) => t.stages[st])),
    row('setup', (t) => t.setupMs),
    row('validate', (t) => t.validateMs),
  ];
}

function summaryLine(runs: RunTime[]): string {
  const [cold, ...seen] = runs;
  const q = (pick: (t: StageTimes) => number, p: number): string =>
    seen.length
      ? s(
          percentile(
            seen.map((r) => pick(r.times)),
            p,
          ),
        )
      : 'NaN';
  const installs = runs.map((r) => r.times.setupRuns - r.times.setupRestores);
  return [
    'SUMMARY time-to-pr',
    `runs=${runs.length}`,
    `succeeded=${runs.filter((r) => r.outcome === 'success').length}`,
    `cold_s=${cold ? s(cold.times.totalMs) : 'NaN'}`,
    `p50_s=${q((t) => t.totalMs, 50)}`,
    `p90_s=${q((t) => t.totalMs, 90)}`,
    `setup_p50_s=${q((t) => t.setupMs, 50)}`,
    `cold_setup_s=${cold ? s(cold.times.setupMs) : 'NaN'}`,
    `installs_max=${Math.max(0, ...installs.slice(1))}`,
    `load=${loadavg()[0]!.toFixed(1)}`,
  ].join(' ');
}

async function main(): Promise<void> {
  const tasks = loadTasks(
    TASKS,
    flag('only'),
    flag('limit') ? Number(flag('limit')) : undefined,
  ).map(withChecks);
  if (tasks.length === 0) throw new Error(`no task in ${TASKS} matches`);
  const home = join(WORKDIR, 'autofix-home');
  rmSync(home, { recursive: true, force: true });
  let current: ResolveTask | undefined;
  const llm = await startScriptedLlmServer({ respond: (req) => replayAnswer(req, current) });
  const options: PipelineOptions = {
    baseUrl: llm.baseUrl,
    model: 'replay',
    apiKey: undefined,
    sandbox: sandboxMode(flag('sandbox'), log),
    home,
  };
  log(
    `${tasks.length} tasks × ${ROUNDS} round(s), ${STRATEGY}, sandbox ${options.sandbox}, load ${loadavg()[0]!.toFixed(1)}`,
  );
  log(header());
  const runs: RunTime[] = [];
  try {
    for (let round = 1; round <= ROUNDS; round++)
      for (const task of tasks) {
        current = task;
        const r = await runOne(task, round, options);
        runs.push(r);
        log(runLine(r, runs.length === 1));
      }
  } finally {
    await llm.close();
  }
  const json = flag('json');
  if (json) writeFileSync(json, JSON.stringify(runs, null, 2));
  const out = [
    header(),
    ...runs.map((r, i) => runLine(r, i === 0)),
    '',
    ...quantiles(runs.slice(1)),
  ];
  process.stdout.write(`${out.join('\n')}\n${summaryLine(runs)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:time-to-pr: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
