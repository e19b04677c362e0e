/**
 * `npm run bench:workspace`: how fast a job gets a working copy of a large repository.
 *
 * Generates (reproducibly, cached under the OS temp dir by its parameters) a bare repository of
 * ~20,000 files and ~2,000 commits with `git fast-import`, then measures every path to a ready
 * worktree ("ready": fetched, checked out at the base head and verified clean):
 *   - a fresh `git clone` over file:// (git packs and transfers objects as from GitHub): the yardstick;
 *   - `autofix run`, cold (empty AUTOFIX_WORKDIR: the mirror is created) and warm: each run a new
 *     process, with the workspace options run-local.ts uses (`localWorkspaceOptions`), and the
 *     user's repository (a checkout made by one of the clones) as the remote;
 *   - the app, cold (first job creates the mirror) and warm (recycled worktrees, its default), and
 *     8 warm jobs 2 at a time;
 *   - for reference, a warm job with a new worktree (no recycling: `autofix run` before #15);
 *   - a stage's end to the next stage's ready worktree in the app, the stage having installed
 *     dependencies (5,000 ignored files), its close awaited or in the background
 *     (`closeWorkspaceLater`, what the app's stages do), alternating.
 * Prints a table (min/median/max: the machine may be shared), then
 * `SUMMARY workspace <path>_s=<median s> <path>_x=<clone median ÷ path median> … speedup=<app warm x>
 * answer_inline_ms=… answer_background_ms=… next_ready_inline_ms=… next_ready_background_ms=…`.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { localWorkspaceOptions } from '../src/git/local-workspace.js';
import {
  closeWorkspace,
  closeWorkspaceLater,
  openWorkspace,
  workspacesClosed,
  type WorkspaceOptions,
} from '../src/git/workspace.js';
import type { Logger } from '../src/logger.js';
import { createRng } from './patch/prng.js';

const PARAMS = { files: 20_000, commits: 2_000, changesPerCommit: 8, linesPerFile: 30, seed: 42 };
const FRESH_CLONES = 3;
const WARM_JOBS = 3;
const CLI_WARM_RUNS = 5;
const PARALLEL_JOBS = 8;
const CONCURRENCY = 2;

const run = promisify(execFile);

function filePath(i: number): string {
  // 50 packages × 20 modules × 20 files: a tree shaped like a real monorepo.
  const pkg = String(Math.floor(i / 400)).padStart(2, '0');
  const mod = String(Math.floor(i / 20) % 20).padStart(2, '0');
  return `packages/pkg${pkg}/src/mod${mod}/file${String(i % 20).padStart(2, '0')}.ts`;
}

function fileContent(random: () => number, i: number, version: number): string {
  const lines = [`// ${filePath(i)} v${version}`];
  for (let k = 0; k < PARAMS.linesPerFile; k++) {
    const n = Math.floor(random() * 1e9);
    lines.push(`export const value${k} = ${n}; // ${n.toString(36).repeat(1 + (n % 4))}`);
  }
  return `${lines.join('\n')}\n`;
}

async function generateRemote(dir: string): Promise<void> {
  await run('git', ['init', '--quiet', '--bare', dir]);
  const child = spawn('git', ['fast-import', '--quiet', '--done'], {
    cwd: dir,
    stdio: ['pipe', 'inherit', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const write = (text: string) =>
    child.stdin.write(text) ? Promise.resolve() : new Promise((r) => child.stdin.once('drain', r));
  const rng = createRng(PARAMS.seed); // the same repository on every machine
  const random = (): number => rng.next();
  let time = 1_700_000_000;
  const commit = async (n: number, files: number[]) => {
    time += 3600;
    const message = n === 0 ? 'initial import' : `change ${files.length} files (#${n})`;
    let chunk =
      `commit refs/heads/main\ncommitter Bench <bench@example.com> ${time} +0000\n` +
      `data ${Buffer.byteLength(message)}\n${message}\n`;
    for (const i of files) {
      const content = fileContent(random, i, n);
      chunk += `M 100644 inline ${filePath(i)}\ndata ${Buffer.byteLength(content)}\n${content}\n`;
      if (chunk.length > 1 << 20) {
        await write(chunk);
        chunk = '';
      }
    }
    await write(chunk);
  };
  await commit(
    0,
    Array.from({ length: PARAMS.files }, (_, i) => i),
  );
  for (let n = 1; n < PARAMS.commits; n++) {
    const files = Array.from({ length: PARAMS.changesPerCommit }, () =>
      Math.floor(random() * PARAMS.files),
    );
    await commit(n, [...new Set(files)]);
  }
  await write('done\n');
  child.stdin.end();
  if ((await exited) !== 0) throw new Error('git fast-import failed');
  await run('git', ['symbolic-ref', 'HEAD', 'refs/heads/main'], { cwd: dir });
  // Like a GitHub repository: one well-packed pack.
  await run('git', ['repack', '-a', '-d', '-q'], { cwd: dir });
}

async function cachedRemote(): Promise<string> {
  const key = Object.entries(PARAMS)
    .map(([k, v]) => `${k}${v}`)
    .join('-');
  const base = join(tmpdir(), `autofix-bench-workspace-${key}`);
  const dir = join(base, 'remote.git');
  if (existsSync(join(base, 'ready'))) return dir;
  await rm(base, { recursive: true, force: true });
  await mkdir(base, { recursive: true });
  const t = performance.now();
  console.log(`generating ${PARAMS.files} files × ${PARAMS.commits} commits in ${dir} …`);
  await generateRemote(dir);
  await writeFile(join(base, 'ready'), new Date().toISOString());
  console.log(`generated in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  return dir;
}

async function diskMb(path: string): Promise<number> {
  const { stdout } = await run('du', ['-sk', path]);
  return Number(stdout.split(/\s/)[0]) / 1024;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

interface Row {
  name: string;
  /** SUMMARY key; rows without one are only printed. */
  key?: string;
  times: number[];
  closeTimes: number[];
  disk: number[];
  /** Wall time of a concurrent batch. */
  wallS?: number;
}

const newRow = (name: string, key?: string): Row => ({
  name,
  ...(key ? { key } : {}),
  times: [],
  closeTimes: [],
  disk: [],
});

interface JobTiming {
  readyMs: number;
  closeMs: number;
  diskMb: number;
  recycled: boolean;
}

/** Reads `recycled` from openWorkspace's "workspace ready" line; everything else is dropped. */
function readyLogger(onReady: (recycled: boolean) => void): Logger {
  const log = {
    info: (fields: { recycled?: boolean }, msg?: string) => {
      if (msg === 'workspace ready') onReady(fields.recycled === true);
    },
    warn: () => undefined,
    error: () => undefined,
    debug: () => undefined,
    child: () => log,
  };
  return log as unknown as Logger;
}

/** One job: open (timed: "ready"), measure the job folder, close (timed). */
async function timedJob(options: WorkspaceOptions): Promise<JobTiming> {
  let recycled = false;
  const logger = readyLogger((r) => (recycled = r));
  const t = performance.now();
  const ws = await openWorkspace({ ...options, logger });
  const readyMs = performance.now() - t;
  const disk = await diskMb(ws.jobDir);
  const c = performance.now();
  await closeWorkspace(ws);
  return { readyMs, closeMs: performance.now() - c, diskMb: disk, recycled };
}

interface HandOverTiming {
  /** The stage's end to its answer: the close, awaited or started. */
  answerMs: number;
  /** The stage's end to the next stage's ready worktree. */
  nextReadyMs: number;
  recycled: boolean;
}

/** A stage that installed dependencies ends; the next stage of the run opens its workspace. */
async function handOver(options: WorkspaceOptions, background: boolean, i: number) {
  const name = `${background ? 'bg' : 'inline'}-${i}`;
  const ws = await openWorkspace({ ...options, jobId: `stage-${name}` });
  for (let d = 0; d < 50; d++) {
    await mkdir(join(ws.worktree, 'node_modules', `dep${d}`), { recursive: true });
    for (let f = 0; f < 100; f++)
      await writeFile(join(ws.worktree, 'node_modules', `dep${d}`, `f${f}.js`), 'x');
  }
  let recycled = false;
  const t = performance.now();
  if (background) closeWorkspaceLater(ws);
  else await closeWorkspace(ws);
  const answerMs = performance.now() - t;
  const logger = readyLogger((r) => (recycled = r));
  const next = await openWorkspace({ ...options, jobId: `next-${name}`, logger });
  const nextReadyMs = performance.now() - t;
  await closeWorkspace(next);
  await workspacesClosed(120_000);
  return { answerMs, nextReadyMs, recycled } satisfies HandOverTiming;
}

/** Both ways, alternating, `runs` times each. */
async function handOvers(options: WorkspaceOptions, runs: number) {
  const inline: HandOverTiming[] = [];
  const background: HandOverTiming[] = [];
  for (let i = 0; i < runs; i++) {
    inline.push(await handOver(options, false, i));
    background.push(await handOver(options, true, i));
  }
  return { inline, background };
}

/** The stage-to-stage table; its SUMMARY keys. */
function printHandOvers(h: { inline: HandOverTiming[]; background: HandOverTiming[] }): string {
  const ms = (xs: number[]): string => median(xs).toFixed(0);
  console.log('');
  console.log(
    "| a stage's close (5,000 installed files) | runs | stage end → answer ms (median) | stage end → next stage ready ms (median) | next stage recycled |",
  );
  console.log('|---|---:|---:|---:|---:|');
  const keys: string[] = [];
  for (const [name, key, xs] of [
    ['awaited', 'inline', h.inline],
    ['in the background (closeWorkspaceLater)', 'background', h.background],
  ] as const) {
    const answer = ms(xs.map((x) => x.answerMs));
    const next = ms(xs.map((x) => x.nextReadyMs));
    const recycled = xs.filter((x) => x.recycled).length;
    console.log(`| ${name} | ${xs.length} | ${answer} | ${next} | ${recycled}/${xs.length} |`);
    keys.push(`answer_${key}_ms=${answer}`, `next_ready_${key}_ms=${next}`);
  }
  return keys.join(' ');
}

const CLI_JOB_FLAG = '--cli-job';

/**
 * `autofix run` is one process per run: each CLI job runs in a child process of its own (per
 * process memos, such as the 10-minute `gc --auto` spacing, start empty as they do for a user).
 */
function cliJob(workdir: string, repoPath: string, jobId: string): Promise<JobTiming> {
  const args = [
    fileURLToPath(import.meta.url),
    CLI_JOB_FLAG,
    JSON.stringify({ workdir, repoPath, jobId }),
  ];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`CLI job ${jobId} failed: ${stderr || err.message}`));
      else resolve(JSON.parse(stdout.trim().split('\n').pop()!) as JobTiming);
    });
  });
}

async function cliJobChild(json: string): Promise<void> {
  const { workdir, repoPath, jobId } = JSON.parse(json) as {
    workdir: string;
    repoPath: string;
    jobId: string;
  };
  const timing = await timedJob(
    localWorkspaceOptions({
      workdir,
      repoPath,
      baseBranch: 'main',
      branchPrefix: 'autofix/',
      jobId,
    }),
  );
  console.log(JSON.stringify(timing));
}

const record = (row: Row, t: JobTiming): void => {
  row.times.push(t.readyMs);
  row.closeTimes.push(t.closeMs);
  row.disk.push(t.diskMb);
};

const seconds = (ms: number) => (ms / 1000).toFixed(3);

async function main(): Promise<void> {
  const remote = await cachedRemote();
  const url = pathToFileURL(remote).href;
  const scratch = join(tmpdir(), `autofix-bench-run-${process.pid}`);
  await rm(scratch, { recursive: true, force: true });
  await mkdir(scratch, { recursive: true });
  const rows: Row[] = [];
  try {
    const clone = newRow('fresh git clone (file://)', 'clone');
    let userRepo = '';
    for (let i = 0; i < FRESH_CLONES; i++) {
      const dest = join(scratch, `clone-${i}`);
      const t = performance.now();
      await run('git', ['clone', '--quiet', url, dest]);
      clone.times.push(performance.now() - t);
      clone.disk.push(await diskMb(dest));
      // The last clone stays: it is the user's repository of the `autofix run` rows.
      if (i < FRESH_CLONES - 1) await rm(dest, { recursive: true, force: true });
      else userRepo = dest;
    }
    rows.push(clone);

    // `autofix run`: its own AUTOFIX_WORKDIR, the user's checkout as the remote.
    const cliWorkdir = join(scratch, 'cli-workdir');
    const cliCold = newRow('autofix run, cold (creates the mirror)', 'cli_cold');
    record(cliCold, await cliJob(cliWorkdir, userRepo, 'cli-cold'));
    rows.push(cliCold);
    const cliWarm = newRow('autofix run, warm (recycled worktree)', 'cli_warm');
    for (let i = 0; i < CLI_WARM_RUNS; i++) {
      const t = await cliJob(cliWorkdir, userRepo, `cli-warm-${i}`);
      if (!t.recycled) throw new Error('a warm autofix run did not get a recycled worktree');
      record(cliWarm, t);
    }
    rows.push(cliWarm);

    // The app: its own workdir, the remote over file:// as from GitHub, recycleWorktrees = 2.
    const workdir = join(scratch, 'app-workdir');
    const appJob = (jobId: string, recycleWorktrees: number) =>
      timedJob({
        workdir,
        repo: 'bench/big',
        remoteUrl: url,
        baseBranch: 'main',
        jobId,
        recycleWorktrees,
      });
    const appCold = newRow('app, cold (first job creates the mirror)', 'app_cold');
    record(appCold, await appJob('cold', CONCURRENCY));
    rows.push(appCold);
    const mirrorMb = await diskMb(join(workdir, 'mirrors'));
    // Two jobs at once leave two parked worktrees (the pool the app keeps at its concurrency).
    await Promise.all([appJob('fill-a', CONCURRENCY), appJob('fill-b', CONCURRENCY)]);
    const appWarm = newRow('app, warm (recycled worktree, the default)', 'app_warm');
    for (let i = 0; i < WARM_JOBS; i++) record(appWarm, await appJob(`recycled-${i}`, CONCURRENCY));
    rows.push(appWarm);
    const batch = newRow(
      `app, ${PARALLEL_JOBS} warm jobs ${CONCURRENCY} at a time (recycled)`,
      'app_batch',
    );
    const queue = Array.from({ length: PARALLEL_JOBS }, (_, i) => `par-recycled-${i}`);
    const wall = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let id = queue.shift(); id; id = queue.shift())
          record(batch, await appJob(id, CONCURRENCY));
      }),
    );
    batch.wallS = (performance.now() - wall) / 1000;
    rows.push(batch);
    const poolMb = await diskMb(join(workdir, 'pool'));

    // Reference: no recycling, a new worktree per job (what `autofix run` did before #15).
    const fresh = newRow('reference: warm job, new worktree (no recycling)', 'new_worktree');
    for (let i = 0; i < WARM_JOBS; i++) record(fresh, await appJob(`new-${i}`, 0));
    rows.push(fresh);

    const handed = await handOvers(
      { workdir, repo: 'bench/big', remoteUrl: url, baseBranch: 'main', recycleWorktrees: 2 },
      WARM_JOBS + 2,
    );

    const cloneMedian = median(clone.times);
    console.log('');
    console.log(
      '| path | runs | min s | median s | max s | × faster than a clone (median) | close median s | disk per job MB | batch wall s |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of rows) {
      console.log(
        `| ${r.name} | ${r.times.length} | ${seconds(Math.min(...r.times))} | ${seconds(median(r.times))} | ` +
          `${seconds(Math.max(...r.times))} | ${(cloneMedian / median(r.times)).toFixed(1)} | ` +
          `${r.closeTimes.length ? seconds(median(r.closeTimes)) : ''} | ${median(r.disk).toFixed(1)} | ` +
          `${r.wallS === undefined ? '' : r.wallS.toFixed(2)} |`,
      );
    }
    console.log('');
    console.log(
      `shared per repository: mirror ${mirrorMb.toFixed(1)} MB; pool of ${CONCURRENCY} parked worktrees ` +
        `${poolMb.toFixed(1)} MB (the app parks as many as its code-stage concurrency, autofix run 1)`,
    );
    const summary = rows
      .filter((r) => r.key)
      .flatMap((r) => [
        `${r.key}_s=${seconds(median(r.times))}`,
        ...(r === clone ? [] : [`${r.key}_x=${(cloneMedian / median(r.times)).toFixed(1)}`]),
      ]);
    const diskPerJob = median([...cliWarm.disk, ...appWarm.disk]);
    const handOverKeys = printHandOvers(handed);
    console.log(
      `SUMMARY workspace ${summary.join(' ')} ` +
        `speedup=${(cloneMedian / median(appWarm.times)).toFixed(1)} disk_per_job_mb=${diskPerJob.toFixed(1)} ` +
        handOverKeys,
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

const flag = process.argv.indexOf(CLI_JOB_FLAG);
(flag >= 0 ? cliJobChild(process.argv[flag + 1] ?? '{}') : main()).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
