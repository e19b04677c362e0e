/**
 * `npm run bench:cli-start`: how long the compiled CLI takes to start (issue #15). Goal:
 * `autofix --help` < 150 ms and `autofix apply-patch` of a small patch < 300 ms (medians).
 *
 * Runs, round-robin so that machine noise spreads evenly, each as a whole new process:
 *   - `node -e 0` (the floor: Node's own start),
 *   - `autofix --help`,
 *   - `autofix apply-patch --repo R --patch P` on a one-line change of a small repository (the file
 *     is restored between runs, outside the timing),
 *   - `git apply P` on the same change (reference).
 * Wall time is measured here; CPU time and peak memory come from `/usr/bin/time` when present.
 * Prints a table, then `SUMMARY cli-start help_ms=… apply_patch_ms=… …`.
 * Flags: --runs N (default 20), --cli PATH (another build's dist/src/bin/autofix.js, to compare).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const RUNS = Number(flag('runs') ?? 20);
const WARMUP = 2;
const CLI = resolve(
  flag('cli') ?? fileURLToPath(new URL('../src/bin/autofix.js', import.meta.url)),
);
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const GOALS: Record<string, number> = { help: 150, 'apply-patch': 300 };

interface Sample {
  wallMs: number;
  cpuMs?: number;
  peakMb?: number;
  code: number | null;
}

interface Case {
  name: string;
  argv: string[];
  cwd: string;
  /** Runs after each sample, outside the timing. */
  reset?: () => Promise<void>;
}

/** One run as a new process; with /usr/bin/time, its CPU time and peak RSS too. */
function sample(c: Case): Promise<Sample> {
  const argv = TIME ? [TIME, '-f', '@@time %U %S %M', ...c.argv] : c.argv;
  return new Promise((done, fail) => {
    const start = performance.now();
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: c.cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      const wallMs = performance.now() - start;
      const m = /@@time ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
      if (!m) return done({ wallMs, code });
      const [, user, sys, rssKb] = m;
      done({
        wallMs,
        cpuMs: (Number(user) + Number(sys)) * 1000,
        peakMb: Number(rssKb) / 1024,
        // /usr/bin/time exits with the command's code.
        code,
      });
    });
  });
}

function stats(xs: number[]): { min: number; median: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return { min: s[0]!, median, max: s[s.length - 1]! };
}

async function smallRepo(dir: string): Promise<{ repo: string; patch: string; file: string }> {
  const repo = join(dir, 'repo');
  const git = (...args: string[]): void => {
    execFileSync('git', args, { cwd: repo, stdio: 'ignore' });
  };
  execFileSync('git', ['init', '-q', repo]);
  const file = join(repo, 'calc.js');
  const lines = Array.from({ length: 40 }, (_, i) => `export const v${i} = ${i};`);
  await writeFile(file, `${lines.join('\n')}\n`);
  git('add', '.');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-qm', 'init');
  const patch = join(dir, 'change.diff');
  await writeFile(
    patch,
    [
      '--- a/calc.js',
      '+++ b/calc.js',
      '@@ -19,5 +19,5 @@',
      ' export const v18 = 18;',
      ' export const v19 = 19;',
      '-export const v20 = 20;',
      '+export const v20 = 2000;',
      ' export const v21 = 21;',
      ' export const v22 = 22;',
      '',
    ].join('\n'),
  );
  return { repo, patch, file };
}

async function main(): Promise<void> {
  if (!existsSync(CLI)) throw new Error(`${CLI} does not exist: run npm run build first`);
  const scratch = await mkdtemp(join(tmpdir(), 'autofix-bench-cli-'));
  try {
    const { repo, patch, file } = await smallRepo(scratch);
    const original = await readFile(file, 'utf8');
    const restore = (): Promise<void> => writeFile(file, original);
    const node = process.execPath;
    const cases: Case[] = [
      { name: 'node -e 0', argv: [node, '-e', '0'], cwd: repo },
      { name: 'help', argv: [node, CLI, '--help'], cwd: repo },
      {
        name: 'apply-patch',
        argv: [node, CLI, 'apply-patch', '--repo', repo, '--patch', patch],
        cwd: repo,
        reset: restore,
      },
      { name: 'git apply', argv: ['git', 'apply', patch], cwd: repo, reset: restore },
    ];
    const samples = new Map<string, Sample[]>(cases.map((c) => [c.name, []]));
    for (let round = 0; round < WARMUP + RUNS; round++) {
      for (const c of cases) {
        const s = await sample(c);
        await c.reset?.();
        if (s.code !== 0) throw new Error(`${c.argv.join(' ')} exited ${s.code}`);
        if (round >= WARMUP) samples.get(c.name)!.push(s);
      }
    }

    console.log(`CLI: ${CLI}`);
    console.log(
      `${RUNS} runs of each (after ${WARMUP} warm-up), round-robin; ` +
        (TIME ? 'CPU and peak memory from /usr/bin/time' : 'no /usr/bin/time: wall time only'),
    );
    console.log('');
    console.log(
      '| command | wall ms min | wall ms median | wall ms max | cpu ms median | peak MB median | goal |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---|');
    const medians: Record<string, { wall: number; cpu?: number; peak?: number }> = {};
    for (const c of cases) {
      const xs = samples.get(c.name)!;
      const wall = stats(xs.map((s) => s.wallMs));
      const cpu = TIME ? stats(xs.map((s) => s.cpuMs ?? 0)).median : undefined;
      const peak = TIME ? stats(xs.map((s) => s.peakMb ?? 0)).median : undefined;
      medians[c.name] = {
        wall: wall.median,
        ...(cpu === undefined ? {} : { cpu }),
        ...(peak === undefined ? {} : { peak }),
      };
      const goal = GOALS[c.name];
      console.log(
        `| ${c.name} | ${wall.min.toFixed(0)} | ${wall.median.toFixed(0)} | ${wall.max.toFixed(0)} | ` +
          `${cpu?.toFixed(0) ?? '–'} | ${peak?.toFixed(1) ?? '–'} | ` +
          `${goal === undefined ? '' : `< ${goal} ms: ${wall.median < goal ? 'met' : 'NOT met'}`} |`,
      );
    }
    const m = (name: string) => medians[name]!;
    const extra = (key: string, v: number | undefined, digits: number): string =>
      v === undefined ? '' : ` ${key}=${v.toFixed(digits)}`;
    console.log('');
    console.log(
      `SUMMARY cli-start help_ms=${m('help').wall.toFixed(0)} apply_patch_ms=${m('apply-patch').wall.toFixed(0)}` +
        ` node_floor_ms=${m('node -e 0').wall.toFixed(0)} git_apply_ms=${m('git apply').wall.toFixed(0)}` +
        extra('help_cpu_ms', m('help').cpu, 0) +
        extra('apply_patch_cpu_ms', m('apply-patch').cpu, 0) +
        extra('help_peak_mb', m('help').peak, 1) +
        extra('apply_patch_peak_mb', m('apply-patch').peak, 1) +
        ` runs=${RUNS}`,
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
