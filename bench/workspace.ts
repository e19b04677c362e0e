/**
 * `npm run bench:workspace`: how fast a job gets a working copy of a large repository.
 *
 * Generates (reproducibly, cached under the OS temp dir by its parameters) a bare repository of
 * ~20,000 files and ~2,000 commits with `git fast-import`, then measures per job:
 *   - a fresh `git clone` over file:// (git packs and transfers objects as from GitHub),
 *   - the workspace cache: first job (mirror created), warm jobs, and 8 jobs 2 at a time, with
 *     new worktrees (`autofix run`) and with recycled worktrees (`recycleWorktrees`, the app's default).
 * "Ready" means fetched, checked out at the base head and verified clean.
 * Prints a table, then `SUMMARY workspace speedup=<clone ÷ warm recycled job> disk_per_job_mb=<n> …`.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { closeWorkspace, openWorkspace, type Workspace } from '../src/git/workspace.js';

const PARAMS = { files: 20_000, commits: 2_000, changesPerCommit: 8, linesPerFile: 30, seed: 42 };
const FRESH_CLONES = 3;
const WARM_JOBS = 3;
const PARALLEL_JOBS = 8;
const CONCURRENCY = 2;

const run = promisify(execFile);

/** mulberry32: a tiny seeded PRNG, so the repository is the same on every machine. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
  const random = prng(PARAMS.seed);
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
  times: number[];
  disk: number[];
  /** Wall time of a concurrent batch. */
  wallS?: number;
}

async function main(): Promise<void> {
  const remote = await cachedRemote();
  const url = pathToFileURL(remote).href;
  const scratch = join(tmpdir(), `autofix-bench-run-${process.pid}`);
  await rm(scratch, { recursive: true, force: true });
  await mkdir(scratch, { recursive: true });
  const rows: Row[] = [];
  try {
    const clone: Row = { name: 'fresh git clone (file://)', times: [], disk: [] };
    for (let i = 0; i < FRESH_CLONES; i++) {
      const dest = join(scratch, `clone-${i}`);
      const t = performance.now();
      await run('git', ['clone', '--quiet', url, dest]);
      clone.times.push(performance.now() - t);
      clone.disk.push(await diskMb(dest));
      await rm(dest, { recursive: true, force: true });
    }
    rows.push(clone);

    const workdir = join(scratch, 'workdir');
    const job = async (jobId: string, row: Row | null, recycleWorktrees = 0) => {
      const t = performance.now();
      const ws: Workspace = await openWorkspace({
        workdir,
        repo: 'bench/big',
        remoteUrl: url,
        baseBranch: 'main',
        jobId,
        recycleWorktrees,
      });
      const ready = performance.now() - t;
      if (row) {
        row.times.push(ready);
        row.disk.push(await diskMb(ws.jobDir));
      }
      await closeWorkspace(ws);
    };
    const twoAtATime = async (name: string, prefix: string, recycle: number): Promise<Row> => {
      const row: Row = { name, times: [], disk: [] };
      const queue = Array.from({ length: PARALLEL_JOBS }, (_, i) => `${prefix}-${i}`);
      const wall = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          for (let id = queue.shift(); id; id = queue.shift()) await job(id, row, recycle);
        }),
      );
      row.wallS = (performance.now() - wall) / 1000;
      return row;
    };

    const cold: Row = { name: 'first job (creates the mirror)', times: [], disk: [] };
    await job('cold', cold);
    rows.push(cold);
    const mirrorMb = await diskMb(join(workdir, 'mirrors'));

    // Default: every job gets a new worktree, removed when it ends.
    const warm: Row = { name: 'warm job, new worktree (autofix run)', times: [], disk: [] };
    for (let i = 0; i < WARM_JOBS; i++) await job(`warm-${i}`, warm);
    rows.push(warm);
    rows.push(
      await twoAtATime(
        `${PARALLEL_JOBS} warm jobs, ${CONCURRENCY} at a time, new worktrees`,
        'par',
        0,
      ),
    );

    // Opt-in: scrubbed worktrees are parked and reused (recycleWorktrees = CONCURRENCY).
    await Promise.all([job('fill-a', null, CONCURRENCY), job('fill-b', null, CONCURRENCY)]);
    const recycled: Row = {
      name: 'warm job, recycled worktree (app default)',
      times: [],
      disk: [],
    };
    for (let i = 0; i < WARM_JOBS; i++) await job(`recycled-${i}`, recycled, CONCURRENCY);
    rows.push(recycled);
    rows.push(
      await twoAtATime(
        `${PARALLEL_JOBS} warm jobs, ${CONCURRENCY} at a time, recycled worktrees`,
        'par-recycled',
        CONCURRENCY,
      ),
    );
    const poolMb = await diskMb(join(workdir, 'pool'));

    console.log('');
    console.log('| scenario | runs | median s | max s | disk per job MB | batch wall s |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const r of rows) {
      console.log(
        `| ${r.name} | ${r.times.length} | ${(median(r.times) / 1000).toFixed(3)} | ` +
          `${(Math.max(...r.times) / 1000).toFixed(3)} | ${median(r.disk).toFixed(1)} | ` +
          `${r.wallS === undefined ? '' : r.wallS.toFixed(2)} |`,
      );
    }
    console.log('');
    console.log(
      `shared per repository: mirror ${mirrorMb.toFixed(1)} MB; ` +
        `pool of ${CONCURRENCY} parked worktrees ${poolMb.toFixed(1)} MB (the app parks as many as its code-stage concurrency)`,
    );
    const fresh = rows[0]!;
    // The app recycles worktrees (src/pipeline/app/stage-io.ts): that is the warm job it runs.
    const speedup = median(fresh.times) / median(recycled.times);
    const speedupNewWorktree = median(fresh.times) / median(warm.times);
    const diskPerJob = median(rows.slice(2).flatMap((r) => r.disk));
    console.log(
      `SUMMARY workspace speedup=${speedup.toFixed(1)} disk_per_job_mb=${diskPerJob.toFixed(1)} ` +
        `speedup_new_worktree=${speedupNewWorktree.toFixed(1)}`,
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
