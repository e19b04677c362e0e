/**
 * Part 2: the hand-over on a big worktree. As root the runner gives every file of the worktree to
 * the sandbox user before each command and takes them back after it (`chown -R`, two walks of the
 * whole tree), so its cost grows with the repository, not with the command. Measured on a
 * generated tree of cheap files: one sandboxed `true` against an unsandboxed one, and the walks
 * on their own.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxPolicy } from '../../src/exec/sandbox-policy.js';
import {
  chownRoundTrip,
  chownWalkOnly,
  runnerCommand,
  type CommandDirs,
} from './sandbox-pieces.js';
import { timeInterleaved, type Timing } from './timings.js';

const FILES_PER_DIR = 100;

/** `files` small files, 100 per directory, like a source tree's leaves. */
function generateTree(root: string, files: number): void {
  for (let i = 0; i < files; i++) {
    const dir = join(root, `src/pkg${Math.floor(i / 2000)}/mod${Math.floor(i / FILES_PER_DIR)}`);
    if (i % FILES_PER_DIR === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `file${i % FILES_PER_DIR}.ts`), `export const v${i} = ${i};\n`);
  }
}

export type BigWorktree = Timing[];

export async function measureBigWorktree(
  scratch: string,
  files: number,
  runs: number,
  policies: { none: SandboxPolicy; bwrap: SandboxPolicy },
): Promise<BigWorktree> {
  const dir = await mkdtemp(join(scratch, 'big-'));
  const dirs: CommandDirs = { worktree: join(dir, 'worktree'), home: join(dir, 'home') };
  await mkdir(dirs.home);
  generateTree(dirs.worktree, files);
  const n = files.toLocaleString('en-US');
  return timeInterleaved(
    [
      {
        name: `\`true\` in ${n} files, sandbox none`,
        run: () => runnerCommand(['true'], dirs, policies.none, false),
      },
      {
        name: `\`true\` in ${n} files, bwrap`,
        run: () => runnerCommand(['true'], dirs, policies.bwrap, false),
      },
      {
        name: `part: chown hand-over + take-back of ${n} files`,
        run: () => chownRoundTrip([dirs.worktree, dirs.home], policies.bwrap),
      },
      {
        name: `part: one chown walk of ${n} files that changes nothing`,
        run: () => chownWalkOnly([dirs.worktree, dirs.home], policies.bwrap),
      },
    ],
    runs,
  );
}
