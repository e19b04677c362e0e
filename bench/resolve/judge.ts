/**
 * The verdict on a run's commit, as Multi-SWE-bench gives it: the upstream `test_patch` applied
 * on top, the task's test commands run with the dependencies installed outside the pipeline, and
 * the task resolved when every fail-to-pass test passes (and every pass-to-pass test the commands
 * ran still passes). Test names are read from jest's `--verbose` output the way the harness does
 * (`PASS file` / `FAIL file` lines name a suite, `✓ name` / `✕ name` lines its tests).
 */
import { spawn } from 'node:child_process';
import { symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { git } from './prepare.js';
import type { ResolveTask } from './tasks.js';

export interface Verdict {
  resolved: boolean;
  /** Fail-to-pass tests that did not pass (missing counts as failed). */
  f2pFailed: string[];
  /** Pass-to-pass tests that ran and failed. */
  p2pBroken: string[];
  /** Why no tests could run (no commit, the test patch did not apply…). */
  error?: string;
  seconds: number;
}

/** Passed and failed test names of jest `--verbose` output. */
export function parseJestVerbose(log: string): { passed: Set<string>; failed: Set<string> } {
  const passed = new Set<string>();
  const failed = new Set<string>();
  let suite: string | undefined;
  const clean = (s: string): string => s.replace(/\s\(\d*\.?\d+\s*\w+\)$/, '').trim();
  for (const raw of log.split('\n')) {
    const line = raw.trim();
    const suiteLine = /^(PASS|FAIL) (.+)$/.exec(line);
    if (suiteLine?.[1] && suiteLine[2]) {
      suite = clean(suiteLine[2]);
      (suiteLine[1] === 'PASS' ? passed : failed).add(suite);
      continue;
    }
    const testLine = /^([✓✕]) (.+)$/.exec(line);
    if (testLine?.[1] && testLine[2] && suite)
      (testLine[1] === '✓' ? passed : failed).add(`${suite}:${clean(testLine[2])}`);
  }
  return { passed, failed };
}

function runShell(command: string, cwd: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', command], {
      cwd,
      env: { ...process.env, CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    child.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

export async function judge(
  task: ResolveTask,
  repoDir: string,
  commit: string | undefined,
  depsDir: string,
  runDir: string,
): Promise<Verdict> {
  const started = performance.now();
  const done = (v: Omit<Verdict, 'seconds'>): Verdict => ({
    ...v,
    seconds: (performance.now() - started) / 1000,
  });
  const unresolved = (error: string): Verdict =>
    done({ resolved: false, f2pFailed: task.fail_to_pass, p2pBroken: [], error });
  if (!commit) return unresolved('no commit');
  try {
    git(repoDir, ['checkout', '--quiet', '--detach', commit]);
  } catch {
    return unresolved(`commit ${commit} is not in the repository (not published)`);
  }
  const patch = join(runDir, 'test.patch');
  writeFileSync(patch, task.test_patch);
  try {
    git(repoDir, ['apply', '--whitespace=nowarn', patch]);
  } catch (err) {
    return unresolved(`test_patch does not apply: ${(err as { stderr?: string }).stderr ?? ''}`);
  }
  if (!existsSync(join(repoDir, 'node_modules')))
    symlinkSync(join(depsDir, 'node_modules'), join(repoDir, 'node_modules'));
  let log = '';
  for (const command of task.test) log += await runShell(command, repoDir);
  writeFileSync(join(runDir, 'tests.log'), log);
  const { passed, failed } = parseJestVerbose(log);
  const f2pFailed = task.fail_to_pass.filter((t) => !passed.has(t));
  const p2pBroken = task.pass_to_pass.filter((t) => failed.has(t));
  return done({ resolved: f2pFailed.length === 0 && p2pBroken.length === 0, f2pFailed, p2pBroken });
}
