/**
 * `npm run bench:python-env`: what a Python repository's own environment (issue #38) costs.
 *   1. Asking the worker's tools for their packages (`workerPackages`: every `python3` on PATH,
 *      `npm root -g`, `node --version`), paid once per process.
 *   2. A validation run in a fresh worktree (the venv is made, then `python -c pass`), a warm one
 *      (the venv is there), and the same command in a repository that is not a Python one
 *      (no venv), interleaved.
 * Prints a table, then `SUMMARY python-env probe_ms=… cold_ms=… warm_ms=… plain_ms=…
 * venv_ms=…` (medians). Env: BENCH_PYTHON_ENV_RUNS (default 5).
 */
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_REPO_CONFIG } from '../src/config/repo-config.js';
import { runValidation } from '../src/exec/run-validation.js';
import { basicSandboxPolicy } from '../src/exec/sandbox-policy.js';
import { workerPackages } from '../src/exec/toolchains/worker-packages.js';
import { summarize } from './sandbox/timings.js';

const RUNS = Number(process.env.BENCH_PYTHON_ENV_RUNS ?? 5);
const sandbox = basicSandboxPolicy('bwrap');
const config = { ...DEFAULT_REPO_CONFIG, setup: [], validate: ['python3 -c pass'] };

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await fn();
  return [performance.now() - started, value];
}

async function repo(python: boolean): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'autofix-bench-pyenv-')));
  await writeFile(join(dir, python ? 'pyproject.toml' : 'README.md'), '[project]\nname = "x"\n');
  return dir;
}

async function main(): Promise<void> {
  const rows: Record<string, number[]> = { probe: [], cold: [], venv: [], warm: [], plain: [] };
  for (let i = 0; i < RUNS; i++) {
    // A PATH of its own: the probe's memo is per PATH, so each run asks again.
    const env = { ...process.env, PATH: `${process.env.PATH ?? ''}:/nonexistent-${i}` };
    rows.probe!.push((await timed(() => workerPackages(env)))[0]);
    const dir = await repo(true);
    const plainDir = await repo(false);
    try {
      const [cold, run] = await timed(() => runValidation(config, dir, { sandbox }));
      if (!run.passed) throw new Error(`cold run failed: ${run.results.at(-1)?.stderr ?? ''}`);
      rows.cold!.push(cold);
      rows.venv!.push(run.results[0]!.duration_ms);
      rows.warm!.push((await timed(() => runValidation(config, dir, { sandbox })))[0]);
      rows.plain!.push((await timed(() => runValidation(config, plainDir, { sandbox })))[0]);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(plainDir, { recursive: true, force: true });
    }
  }
  console.log(`| ${RUNS} runs | min ms | median ms | p90 ms | max ms |`);
  console.log('| --- | ---: | ---: | ---: | ---: |');
  const medians: string[] = [];
  for (const [name, samples] of Object.entries(rows)) {
    const s = summarize(samples);
    console.log(
      `| ${name} | ${[s.min, s.median, s.p90, s.max].map((x) => x.toFixed(0)).join(' | ')} |`,
    );
    medians.push(`${name}_ms=${s.median.toFixed(0)}`);
  }
  console.log('\nprobe: asking the worker for its packages; cold: validation that makes the venv;');
  console.log('venv: the venv command alone; warm: venv there; plain: not a Python repository');
  console.log(`\nSUMMARY python-env ${medians.join(' ')}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
