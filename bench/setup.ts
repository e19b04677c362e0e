/**
 * `npm run bench:setup`: what `setup` costs per stage and per run, with the setup cache (#38).
 *
 * A fixture repository with a real `package.json` and `package-lock.json` (mocha, chai, lodash,
 * eslint 8: ~150 packages from the npm registry; the lockfiles are made once with
 * `npm install --package-lock-only` and kept under the OS temp dir) and `setup: [npm ci]`, run
 * three times through the one seam every stage uses (`createCodeWorkspace(...).setup`), each
 * stage of a fix run that sets up (reproduce, code) in its own job worktree as the app does, the
 * first handing what it installed to the next (exec/setup-cache/handoff.ts). (`verify` is a run
 * of its own, one stage: one restore.)
 *   1. cold: empty workdir (no npm cache, no setup cache);
 *   2. warm: the same commit again; then `restore`: the same, each stage restoring from the
 *      cache (no hand-off: how runs went before it);
 *   3. lock: a commit that changes the lockfile (one package more): a miss, then warm again;
 *   4. off: for reference, the cache turned off (`SETUP_CACHE_MAX_MB=0`), npm's cache warm.
 * Then restore by hard links vs a plain copy of the same node_modules (`cp -a --reflink=auto`:
 * ext4 has no reflinks, so this is a copy; on btrfs/xfs it would clone extents).
 * Prints a table, then `SUMMARY setup cold_s=… warm_s=… lock_s=… off_s=… warm_ratio=… …`.
 * `--repo <bare repository> [--branch B] [--setup "npm ci …"]` runs a real repository instead
 * (cold and warm only), e.g. the dayjs mirror.
 * Runs as the worker does: as root, in bwrap (commands as 65534), hard links; else copies.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { DEFAULT_REPO_CONFIG } from '../src/config/repo-config.js';
import { basicSandboxPolicy } from '../src/exec/sandbox-policy.js';
import { cacheRoot } from '../src/exec/setup-cache/layout.js';
import { listEntries } from '../src/exec/setup-cache/evict.js';
import { createCodeWorkspace } from '../src/pipeline/code/code-workspace.js';
import { handOffSetup } from '../src/exec/setup-cache/handoff.js';
import { nextSetupStageOn, ROUTES, SETUP_STAGES } from '../src/contracts.js';
import { closeWorkspace, openWorkspace } from '../src/git/workspace.js';

const run = promisify(execFile);
const DEPS = { mocha: '10.8.2', chai: '4.5.0', lodash: '4.17.21', eslint: '8.57.1' };
const MORE = { ...DEPS, semver: '7.6.3' };
/** The stages of a fix run that set up, in order. */
const STAGES = ROUTES.fix.filter((s) => SETUP_STAGES.includes(s));
const RUNS = ['cold', 'warm', 'restore', 'lock', 'off'];

interface StageRow {
  run: string;
  stage: string;
  seconds: number;
  cache: string;
  installed: boolean;
}

/** A lockfile for `deps`, made once (network) and kept. */
async function lockfileFor(deps: Record<string, string>): Promise<{ pkg: string; lock: string }> {
  const pkg = `${JSON.stringify({ name: 'fixture', version: '1.0.0', private: true, dependencies: deps }, null, 2)}\n`;
  const dir = join(tmpdir(), `autofix-bench-setup-lock-${Object.keys(deps).length}`);
  if (!existsSync(join(dir, 'package-lock.json'))) {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'package.json'), pkg);
    await run(
      'npm',
      ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'],
      {
        cwd: dir,
      },
    );
  }
  return { pkg, lock: await readFile(join(dir, 'package-lock.json'), 'utf8') };
}

async function git(cwd: string, ...args: string[]): Promise<void> {
  await run('git', args, {
    cwd,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Bench',
      GIT_AUTHOR_EMAIL: 'bench@example.com',
      GIT_COMMITTER_NAME: 'Bench',
      GIT_COMMITTER_EMAIL: 'bench@example.com',
    },
  });
}

/** The fixture repository (a bare remote) at `files`, as a new commit on main. */
async function commitFiles(root: string, files: Record<string, string>): Promise<void> {
  const src = join(root, 'src');
  if (!existsSync(src)) {
    await mkdir(src, { recursive: true });
    await git(src, 'init', '--quiet', '--initial-branch=main');
    await git(root, 'init', '--quiet', '--bare', 'remote.git');
    await git(src, 'remote', 'add', 'origin', join(root, 'remote.git'));
  }
  for (const [path, content] of Object.entries(files)) await writeFile(join(src, path), content);
  await git(src, 'add', '--all');
  await git(src, 'commit', '--quiet', '-m', 'fixture');
  await git(src, 'push', '--quiet', 'origin', 'main');
}

/** One stage's setup in its own job worktree, timed. */
/** The repository the runs use: the fixture, or `--repo <bare repository> --branch --setup`. */
interface Target {
  remote: string;
  branch: string;
  setup: string[];
}

function argOf(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function stageSetup(
  root: string,
  target: Target,
  runName: string,
  stage: (typeof STAGES)[number],
  cacheMb?: number,
): Promise<StageRow> {
  const ws = await openWorkspace({
    workdir: join(root, 'work'),
    repo: 'bench/fixture',
    remoteUrl: pathToFileURL(target.remote).href,
    baseBranch: target.branch,
    jobId: `${runName}-${stage}`,
  });
  try {
    const config = { ...DEFAULT_REPO_CONFIG, setup: target.setup, validate: [] };
    const t = performance.now();
    const setup = await createCodeWorkspace(ws, config, {
      sandbox: basicSandboxPolicy(
        'bwrap',
        cacheMb === undefined ? {} : { setupCacheMaxMb: cacheMb },
      ),
    }).setup({});
    const seconds = (performance.now() - t) / 1000;
    if (!setup?.passed) {
      throw new Error(`setup failed: ${setup?.results.at(-1)?.stderr.slice(-2000) ?? '?'}`);
    }
    const c = setup.setupCache;
    // As the app does before closing the stage's worktree (hosts/app/stages/setup-handoff.ts).
    const next = nextSetupStageOn('fix', stage);
    if (next && runName !== 'restore') await handOffSetup(ws, `${runName}-${next}`);
    return {
      run: runName,
      stage,
      seconds,
      cache: c
        ? `${c.status}${c.reason ? ` (${c.reason})` : ''} ${c.files} files ${c.ms} ms ${c.mode}`
        : '-',
      installed: c?.status !== 'hit' && c?.status !== 'handed',
    };
  } finally {
    await closeWorkspace(ws);
  }
}

async function timeCommand(args: string[]): Promise<number> {
  const t = performance.now();
  await run(args[0]!, args.slice(1));
  return performance.now() - t;
}

/** Hard links vs a copy of the same files (the cache's two restore modes), from an entry. */
async function restoreModes(
  root: string,
  entry: string,
): Promise<{ linkMs: number; copyMs: number; files: number }> {
  const src = join(entry, 'files');
  await mkdir(join(root, 'modes'), { recursive: true });
  const files = Number((await run('sh', ['-c', `find ${src} -type f | wc -l`])).stdout.trim());
  const linkMs = await timeCommand(['cp', '-al', src, join(root, 'modes', 'linked')]);
  const copyMs = await timeCommand([
    'cp',
    '-a',
    '--reflink=auto',
    src,
    join(root, 'modes', 'copied'),
  ]);
  return { linkMs, copyMs, files };
}

const mb = (bytes: number): string => (bytes / 1e6).toFixed(1);

/** The runs over the fixture: cold, warm, after a lockfile change, and with the cache off. */
async function fixtureRuns(root: string, rows: StageRow[]): Promise<void> {
  const a = await lockfileFor(DEPS);
  const b = await lockfileFor(MORE);
  await commitFiles(root, {
    'package.json': a.pkg,
    'package-lock.json': a.lock,
    '.gitignore': 'node_modules/\n',
  });
  const target = {
    remote: join(root, 'remote.git'),
    branch: 'main',
    setup: ['npm ci --no-audit --no-fund'],
  };
  for (const name of ['cold', 'warm', 'restore', 'lock']) {
    if (name === 'lock')
      await commitFiles(root, { 'package.json': b.pkg, 'package-lock.json': b.lock });
    for (const stage of STAGES) rows.push(await stageSetup(root, target, name, stage));
  }
  // For reference: the same run with the setup cache off (SETUP_CACHE_MAX_MB=0), npm's own
  // package cache already warm: what every run paid before.
  for (const stage of STAGES) rows.push(await stageSetup(root, target, 'off', stage, 0));
}

/** `--repo`: a real repository's own setup, cold then warm (its lockfile is its own). */
async function repoRuns(root: string, rows: StageRow[], remote: string): Promise<void> {
  const target = {
    remote,
    branch: argOf('--branch') ?? 'main',
    setup: [argOf('--setup') ?? 'npm ci --no-audit --no-fund'],
  };
  for (const name of ['cold', 'warm', 'restore']) {
    for (const stage of STAGES) rows.push(await stageSetup(root, target, name, stage));
  }
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'autofix-bench-setup-'));
  const rows: StageRow[] = [];
  try {
    const remote = argOf('--repo');
    if (remote) await repoRuns(root, rows, remote);
    else await fixtureRuns(root, rows);
    const cache = cacheRoot(join(root, 'work'), 'bench/fixture');
    const entries = await listEntries(cache);
    const du = (await run('du', ['-sk', cache])).stdout;
    const modes = await restoreModes(root, join(cache, 'entries', entries[0]!.key));
    report(
      rows,
      {
        entries: entries.length,
        bytes: entries.reduce((s, e) => s + e.bytes, 0),
        duKb: Number(du.split('\t')[0]),
      },
      modes,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

function report(
  rows: StageRow[],
  disk: { entries: number; bytes: number; duKb: number },
  modes: { linkMs: number; copyMs: number; files: number },
): void {
  console.log('run     stage      setup s  installed  cache');
  for (const r of rows) {
    console.log(
      `${r.run.padEnd(7)} ${r.stage.padEnd(10)} ${r.seconds.toFixed(2).padStart(7)}  ${String(r.installed).padEnd(9)}  ${r.cache}`,
    );
  }
  const perRun = (name: string) => rows.filter((r) => r.run === name);
  const sum = (name: string) => perRun(name).reduce((s, r) => s + r.seconds, 0);
  const installs = (name: string) => perRun(name).filter((r) => r.installed).length;
  const count = (name: string, what: string) =>
    perRun(name).filter((r) => r.cache.startsWith(what)).length;
  const hits = (name: string) => count(name, 'hit');
  for (const name of RUNS.filter((n) => perRun(n).length > 0)) {
    console.log(
      `run ${name}: setup ${sum(name).toFixed(2)} s, ${installs(name)} install(s), ${hits(name)} restore(s), ${count(name, 'handed')} hand-off(s)`,
    );
  }
  console.log(
    `cache: ${disk.entries} entries, ${mb(disk.bytes)} MB of files (du: ${(disk.duKb / 1000).toFixed(1)} MB)`,
  );
  console.log(
    `restore of ${modes.files} files: hard links ${modes.linkMs.toFixed(0)} ms, copy ${modes.copyMs.toFixed(0)} ms`,
  );
  console.log(
    `SUMMARY setup cold_s=${sum('cold').toFixed(2)} warm_s=${sum('warm').toFixed(2)} ` +
      `restore_s=${sum('restore').toFixed(2)} lock_s=${sum('lock').toFixed(2)} off_s=${sum('off').toFixed(2)} ` +
      `warm_ratio=${(sum('warm') / sum('cold')).toFixed(3)} restore_ratio=${(sum('restore') / sum('cold')).toFixed(3)} ` +
      `installs_cold=${installs('cold')} installs_warm=${installs('warm')} ` +
      `installs_lock=${installs('lock')} hits=${hits('cold') + hits('warm') + hits('lock')} ` +
      `entries=${disk.entries} disk_mb=${mb(disk.bytes)} link_ms=${modes.linkMs.toFixed(0)} ` +
      `copy_ms=${modes.copyMs.toFixed(0)} files=${modes.files}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
