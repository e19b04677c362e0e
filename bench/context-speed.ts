/**
 * `npm run bench:context-speed`: how long `autofix context` takes per issue, CLI start included,
 * on a repository of 2,000 files (~18 MB) (issue #18; goal: median < 1 s on the 2-core machine).
 *
 * Builds (once, then reuses) a synthetic JS/TS git repository (`context-speed/synthetic-repo.ts`)
 * and runs the compiled CLI, `node dist/src/bin/autofix.js context --repo R --issue-file F --json`,
 * as a new process for each of several issue texts, round-robin, after warm-up runs. With
 * `--baseline PATH` (another build's `dist/src/bin/autofix.js`) the two builds run in turn, A B A
 * B, and their reports are compared: same ranking (paths, scores, in-context marks) and same
 * token counts, or the bench fails; with `--rankings-may-differ` (a build that changes the
 * ranking on purpose) each build need only agree with itself, and the table says so.
 * Prints a table (wall ms min/median/max per issue and overall; CPU ms from /usr/bin/time), then
 * `SUMMARY context-speed ms_p50=… files=… mb=…` (with a baseline also `baseline_ms_p50=…`).
 * Flags: --runs N (per issue, default 5), --warmup N (default 1), --cli PATH, --baseline PATH,
 * --rankings-may-differ, --repo DIR (another repository instead of the synthetic one),
 * --workdir DIR (default $TMPDIR/autofix-bench-context-speed, where the synthetic repository is
 * kept).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSyntheticRepo, ISSUES } from './context-speed/synthetic-repo.js';

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const RUNS = Number(flag('runs') ?? 5);
const WARMUP = Number(flag('warmup') ?? 1);
const CLI = resolve(
  flag('cli') ?? fileURLToPath(new URL('../src/bin/autofix.js', import.meta.url)),
);
const BASELINE = flag('baseline') ? resolve(flag('baseline')!) : undefined;
const RANKINGS_MAY_DIFFER = process.argv.includes('--rankings-may-differ');
const WORKDIR = flag('workdir') ?? join(tmpdir(), 'autofix-bench-context-speed');
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const GOAL_MS = 1000;

interface Sample {
  wallMs: number;
  cpuMs?: number;
  stdout: string;
}

function run(argv: string[]): Promise<Sample> {
  const full = TIME ? [TIME, '-f', '@@time %U %S', ...argv] : argv;
  return new Promise((done, fail) => {
    const start = performance.now();
    const child = spawn(full[0]!, full.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      const wallMs = performance.now() - start;
      if (code !== 0) return fail(new Error(`${argv.join(' ')} exited ${code}: ${stderr}`));
      const m = /@@time ([\d.]+) ([\d.]+)/.exec(stderr);
      done({
        wallMs,
        stdout,
        ...(m ? { cpuMs: (Number(m[1]) + Number(m[2])) * 1000 } : {}),
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

/** What must not change between runs and builds: ranking, in-context marks, token counts. */
function essence(stdout: string): string {
  const r = JSON.parse(stdout) as {
    files: number;
    ranking: unknown;
    tokens: number;
    outline: unknown;
    code: unknown;
  };
  return JSON.stringify([r.files, r.ranking, r.tokens, r.outline, r.code]);
}

async function main(): Promise<void> {
  for (const cli of [CLI, BASELINE])
    if (cli && !existsSync(cli)) throw new Error(`${cli} does not exist: run npm run build first`);
  await mkdir(WORKDIR, { recursive: true });
  const repoFlag = flag('repo');
  let repo: string;
  let size: { files: number; bytes: number } | undefined;
  if (repoFlag) repo = resolve(repoFlag);
  else {
    repo = join(WORKDIR, 'repo');
    size = ensureSyntheticRepo(repo);
  }
  const issueFiles: { name: string; file: string }[] = [];
  for (const [i, issue] of ISSUES.entries()) {
    const file = join(WORKDIR, `issue-${i}.md`);
    await writeFile(file, issue.text);
    issueFiles.push({ name: issue.name, file });
  }
  const builds = [{ name: 'this build', cli: CLI }];
  if (BASELINE) builds.push({ name: 'baseline', cli: BASELINE });
  const samples = new Map<string, Sample[]>();
  const key = (build: string, issue: string): string => `${build}\0${issue}`;
  const expected = new Map<string, string>();
  for (let round = 0; round < WARMUP + RUNS; round++) {
    for (const issue of issueFiles) {
      for (const build of builds) {
        const s = await run([
          process.execPath,
          build.cli,
          'context',
          '--repo',
          repo,
          '--issue-file',
          issue.file,
          '--json',
        ]);
        const got = essence(s.stdout);
        const sameAs = RANKINGS_MAY_DIFFER ? key(build.name, issue.name) : issue.name;
        const want = expected.get(sameAs);
        if (want === undefined) expected.set(sameAs, got);
        else if (want !== got)
          throw new Error(`${build.name}: the report for "${issue.name}" differs between runs`);
        if (round < WARMUP) continue;
        const k = key(build.name, issue.name);
        samples.set(k, [...(samples.get(k) ?? []), s]);
      }
    }
  }

  const files =
    size?.files ??
    (JSON.parse((samples.values().next().value as Sample[])[0]!.stdout) as { files: number }).files;
  const mb = size ? size.bytes / 1e6 : undefined;
  console.log(`CLI: ${CLI}${BASELINE ? `\nbaseline: ${BASELINE}` : ''}`);
  console.log(
    `Repository: ${repo} (${files} files${mb === undefined ? '' : `, ${mb.toFixed(1)} MB`})`,
  );
  console.log(
    `${RUNS} runs per issue and build (after ${WARMUP} warm-up), round-robin; each run a new process; ` +
      (TIME ? 'CPU from /usr/bin/time' : 'wall time only'),
  );
  if (BASELINE) {
    const identical = issueFiles.every(
      (i) =>
        !RANKINGS_MAY_DIFFER ||
        expected.get(key('this build', i.name)) === expected.get(key('baseline', i.name)),
    );
    console.log(
      identical
        ? 'Reports identical between the builds (ranking, context, tokens).'
        : 'Reports differ between the builds (--rankings-may-differ): each build agreed with itself.',
    );
  }
  console.log('');
  console.log('| build | issue | wall ms min | wall ms median | wall ms max | cpu ms median |');
  console.log('|---|---|---:|---:|---:|---:|');
  const overall = new Map<string, number>();
  for (const build of builds) {
    const all: Sample[] = [];
    for (const issue of issueFiles) {
      const xs = samples.get(key(build.name, issue.name))!;
      all.push(...xs);
      const w = stats(xs.map((s) => s.wallMs));
      const cpu = TIME ? stats(xs.map((s) => s.cpuMs ?? 0)).median.toFixed(0) : '–';
      console.log(
        `| ${build.name} | ${issue.name} | ${w.min.toFixed(0)} | ${w.median.toFixed(0)} | ${w.max.toFixed(0)} | ${cpu} |`,
      );
    }
    const w = stats(all.map((s) => s.wallMs));
    const cpu = TIME ? stats(all.map((s) => s.cpuMs ?? 0)).median.toFixed(0) : '–';
    console.log(
      `| ${build.name} | **all** | ${w.min.toFixed(0)} | **${w.median.toFixed(0)}** | ${w.max.toFixed(0)} | ${cpu} |`,
    );
    overall.set(build.name, w.median);
  }
  const p50 = overall.get('this build')!;
  console.log('');
  console.log(`Goal: median < ${GOAL_MS} ms: ${p50 < GOAL_MS ? 'met' : 'NOT met'}`);
  console.log(
    `SUMMARY context-speed ms_p50=${p50.toFixed(0)} files=${files}` +
      (mb === undefined ? '' : ` mb=${mb.toFixed(1)}`) +
      (BASELINE ? ` baseline_ms_p50=${overall.get('baseline')!.toFixed(0)}` : '') +
      ` runs=${RUNS * issueFiles.length}`,
  );
}

await main();
