/**
 * One job's `setup` + `validate` of the bench project through the real `runValidation`, timed per
 * phase, with what GNU time saw of npm from inside the command.
 */
import { existsSync } from 'node:fs';
import {
  runValidation,
  type ValidationOptions,
  type ValidationRun,
} from '../../src/exec/run-validation.js';

/**
 * GNU time in front of each command reports, from inside the sandbox, how long npm itself ran
 * and the CPU it and its children burnt (bwrap does not pass its children's CPU up to us). The
 * job's wall time minus npm's own is what the runner and the sandbox add around it: measured in
 * the same job, so the seconds by which other engineers' tests on this VM's two CPUs stretch npm
 * do not hide it.
 */
const TIME = '/usr/bin/time';
const MARK = 'autofix-bench-time';
const timed = (line: string): string =>
  existsSync(TIME) ? `${TIME} -f '${MARK} %e %U %S' ${line}` : line;

const CONFIG = {
  setup: [timed('npm ci')],
  validate: [timed('npm test')],
  env_passthrough: [],
  command_timeout_seconds: 600,
  network_allow: [],
};

/** What GNU time reported on a command's stderr, in ms (NaN without GNU time). */
function reported(stderr: string): { elapsed: number; cpu: number } {
  const match = new RegExp(`^${MARK} ([\\d.]+) ([\\d.]+) ([\\d.]+)$`, 'm').exec(stderr);
  if (!match) return { elapsed: NaN, cpu: NaN };
  return { elapsed: Number(match[1]) * 1000, cpu: (Number(match[2]) + Number(match[3])) * 1000 };
}

export interface JobTime {
  /** Wall time of each phase, hand-over to take-back, in ms. */
  setup: number;
  validate: number;
  /** How long npm itself ran in both, and its CPU (user + system, children included). */
  npm: number;
  cpu: number;
}

/** Runs the job; rejects with the failing command's output unless both phases pass. */
export async function runValidationJob(
  worktree: string,
  options: ValidationOptions,
): Promise<{ time: JobTime; run: ValidationRun }> {
  const marks: number[] = [];
  const started = performance.now();
  const run = await runValidation(CONFIG, worktree, {
    ...options,
    onResult: () => marks.push(performance.now()),
  });
  if (!run.passed) {
    const failed = run.failed?.result;
    throw new Error(
      `\`${failed?.command}\` exited ${failed?.exit_code}\n` +
        `${failed?.stderr.slice(-3000)}\n${failed?.stdout.slice(-1000)}`,
    );
  }
  const time = {
    setup: marks[0]! - started,
    validate: marks[1]! - marks[0]!,
    npm: run.results.reduce((sum, r) => sum + reported(r.stderr).elapsed, 0),
    cpu: run.results.reduce((sum, r) => sum + reported(r.stderr).cpu, 0),
  };
  return { time, run };
}
