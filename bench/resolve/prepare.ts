/**
 * The two checkouts a task needs, both from the repository's snapshot
 * (`<mirrors>/<owner>+<name>/repo`, never written to):
 * - the run's repository: the base commit on a branch of its own, with the task's
 *   `.github/autofix.yml` on top as one commit (what `autofix run` reads), fresh per run;
 * - the dependencies: the base commit with the task's `install` commands run in it, outside the
 *   pipeline and once per base commit, so the judge's tests run offline.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CodeStrategy } from '../../src/config/repo-config.js';
import type { ResolveTask } from './tasks.js';

/** The branch the run starts from (`autofix run` needs one checked out). */
export const BENCH_BRANCH = 'autofix-bench';

const IDENTITY = ['-c', 'user.name=autofix-bench', '-c', 'user.email=bench@autofix.invalid'];

export const git = (dir: string, args: string[]): string =>
  execFileSync('git', ['-C', dir, ...IDENTITY, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 26,
  });

export function mirrorOf(mirrors: string, repo: string): string {
  const [owner, name] = repo.split('/');
  const mirror = join(mirrors, `${owner}+${name}`, 'repo');
  if (!existsSync(mirror))
    throw new Error(
      `no snapshot of ${repo} at ${mirror}: fetch the repository there (a bare git directory) or pass --mirrors`,
    );
  return mirror;
}

/** A fresh clone of the snapshot at `commit`, on `branch`. */
function cloneAt(mirror: string, commit: string, dir: string, branch: string): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('git', ['clone', '--quiet', '--shared', '--no-checkout', mirror, dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    git(dir, ['checkout', '--quiet', '-b', branch, commit]);
  } catch (err) {
    throw new Error(
      `cannot check out ${commit} from ${mirror}: ${(err as { stderr?: string }).stderr ?? String(err)}`,
    );
  }
}

/** The task's `.github/autofix.yml` (JSON is YAML): the strategy, and setup/validate if given. */
export function configText(task: ResolveTask, strategy: CodeStrategy): string {
  return `${JSON.stringify(
    {
      code_strategy: strategy,
      ...(task.setup?.length ? { setup: task.setup } : {}),
      ...(task.validate?.length ? { validate: task.validate } : {}),
    },
    null,
    2,
  )}\n`;
}

/** The run's repository: base commit + one config commit, on `BENCH_BRANCH`. */
export function prepareRepo(
  task: ResolveTask,
  strategy: CodeStrategy,
  mirrors: string,
  dir: string,
): void {
  cloneAt(mirrorOf(mirrors, task.repo), task.base, dir, BENCH_BRANCH);
  mkdirSync(join(dir, '.github'), { recursive: true });
  writeFileSync(join(dir, '.github', 'autofix.yml'), configText(task, strategy));
  git(dir, ['add', '.github/autofix.yml']);
  git(dir, ['commit', '--quiet', '--no-verify', '-m', `chore: autofix bench config (${strategy})`]);
}

/**
 * The base commit with its dependencies installed (kept under `workdir` and reused; complete
 * once its marker is written). Returns the folder whose `node_modules` the judge links to.
 */
export function installDeps(
  task: ResolveTask,
  mirrors: string,
  workdir: string,
  log: (line: string) => void,
): string {
  const [owner, name] = task.repo.split('/');
  const dir = join(workdir, 'deps', `${owner}+${name}`, task.base);
  const marker = join(dir, '.git', 'autofix-bench-installed');
  if (existsSync(marker)) return dir;
  cloneAt(mirrorOf(mirrors, task.repo), task.base, dir, BENCH_BRANCH);
  for (const command of task.install) {
    log(`  install (${task.base.slice(0, 8)}): ${command}`);
    try {
      execFileSync('bash', ['-c', command], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      const e = err as { stderr?: Buffer };
      throw new Error(`install failed in ${dir}: ${command}\n${e.stderr?.toString().slice(-2000)}`);
    }
  }
  writeFileSync(marker, `${task.install.join('\n')}\n`);
  return dir;
}
