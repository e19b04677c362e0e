/**
 * `npm run bench:toolchains`: what Go's caches cost in the sandbox (src/exec/toolchains/go.ts).
 * `validate` reads setup's module cache read-only and builds with the job's own `GOCACHE`, bound
 * writable and kept across the job's commands. The rows compare that with a fresh `GOCACHE` in
 * each command's private /tmp (every `go test` compiles what it imports again), and with no
 * sandbox at all, on the Go module of bench/toolchains/go-module.ts (one dependency, one test).
 * Rows are interleaved (bench/sandbox/timings.ts). Prints the table, then
 * `SUMMARY toolchains go_version=… setup_ms=… validate_job_ms=… validate_per_command_ms=…
 * validate_none_ms=… per_command_over_job_ms=…`.
 * Env: BENCH_TOOLCHAINS_RUNS (default 10).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand, type RunCommandOptions } from '../src/exec/run-command.js';
import { basicSandboxPolicy } from '../src/exec/sandbox-policy.js';
import { parseGoVersion } from '../src/exec/toolchains/index.js';
import { buildCacheDir, setupCache, validateCache } from '../src/pipeline/code/code-workspace.js';
import { median, timeInterleaved, timingTable } from './sandbox/timings.js';
import { createGoModuleRepo } from './toolchains/go-module.js';

const RUNS = Number(process.env.BENCH_TOOLCHAINS_RUNS ?? 10);

async function main(): Promise<void> {
  const job = await realpath(await mkdtemp(join(tmpdir(), 'autofix-bench-toolchains-')));
  try {
    const [worktree, home, tmp, cache] = ['wt', 'home', 'tmp', 'cache'].map((d) =>
      join(job, d),
    ) as [string, string, string, string];
    for (const dir of [worktree, home, tmp, cache, buildCacheDir(tmp)])
      await mkdir(dir, { recursive: true });
    const repo = await createGoModuleRepo(worktree, join(job, 'host-go'));
    await repo.fix();
    const bwrap = basicSandboxPolicy('bwrap');
    const base: RunCommandOptions = {
      worktree,
      home,
      tmpDir: tmp,
      timeoutMs: 120_000,
      sandbox: bwrap,
      envPassthrough: ['GOPROXY', 'GONOSUMDB'],
      baseEnv: { ...process.env, ...repo.proxyEnv },
    };
    const must = async (argv: string[], options: RunCommandOptions): Promise<void> => {
      const r = await runCommand(argv, options);
      if (r.exit_code !== 0) throw new Error(`${argv.join(' ')}: ${r.stderr || r.stdout}`);
    };
    const setup = setupCache(home, cache, 'bwrap');
    const t0 = performance.now();
    await must(['go', 'mod', 'download'], { ...base, binds: setup.binds, env: setup.env });
    const setupMs = performance.now() - t0;
    await rm(join(worktree, '.proxy'), { recursive: true, force: true });

    const shipped = validateCache(cache, tmp, 'bwrap');
    const none = validateCache(cache, tmp, 'none');
    const test = ['go', 'test', '-count=1', './...'];
    const rows = await timeInterleaved(
      [
        {
          name: 'bwrap, GOCACHE of the job (as shipped)',
          run: () => must(test, { ...base, binds: shipped.binds, env: shipped.env }),
        },
        {
          name: "bwrap, GOCACHE in each command's /tmp",
          run: () =>
            must(test, {
              ...base,
              binds: shipped.binds,
              env: { ...shipped.env, GOCACHE: '/tmp/go-build' },
            }),
        },
        {
          name: 'no sandbox, GOCACHE of the job',
          run: () => must(test, { ...base, sandbox: basicSandboxPolicy('none'), env: none.env }),
        },
      ],
      RUNS,
    );
    const goVersion = parseGoVersion(execFileSync('go', ['version'], { encoding: 'utf8' }));
    console.log(`\n## go test ./... in validate (Go ${goVersion}, ${RUNS} runs per row)\n`);
    for (const line of timingTable(rows)) console.log(line);
    const [j, c, n] = rows.map((r) => median(r.samples)) as [number, number, number];
    const f = (x: number): string => x.toFixed(0);
    console.log(`\nsetup (go mod download into the repository cache): ${f(setupMs)} ms`);
    console.log(
      `SUMMARY toolchains go_version=${goVersion} setup_ms=${f(setupMs)} validate_job_ms=${f(j)} ` +
        `validate_per_command_ms=${f(c)} validate_none_ms=${f(n)} per_command_over_job_ms=${f(c - j)}`,
    );
  } finally {
    await rm(job, { recursive: true, force: true });
  }
}

await main();
