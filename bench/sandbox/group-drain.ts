/**
 * What the runner meets when a sandboxed command's leader exits: is anything of its process
 * group still alive? (superviseProcess ends the group, and `killProcessGroup` re-checks only
 * every 50 ms, so one live member costs a whole poll.) Measured on the raw bwrap chain, checked
 * with the runner's own `processGroupMembers`, then every millisecond until the group is empty.
 */
import { spawn } from 'node:child_process';
import type { SandboxPolicy } from '../../src/exec/sandbox-policy.js';
import { processGroupMembers } from '../../src/exec/process-group.js';
import { PLAIN_ENV, rawBwrapArgv, type CommandDirs } from './sandbox-pieces.js';

export interface GroupDrain {
  runs: number;
  /** Runs in which the group still had a live member when the leader's exit was seen. */
  leftover: number;
  /** For those: how long until the group was empty. */
  drainMs: number[];
  /** How long one look at the group (a /proc scan) takes. */
  scanMs: number[];
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

function drainOnce(args: readonly string[], cwd: string, result: GroupDrain): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(args[0]!, args.slice(1), {
      cwd,
      env: PLAIN_ENV,
      detached: true, // like the runner: the command leads its own process group
      stdio: 'ignore',
    });
    child.on('error', reject);
    child.on('exit', () => {
      void (async () => {
        const pgid = child.pid!;
        let t = performance.now();
        const alive = processGroupMembers(pgid)?.length ?? 0;
        result.scanMs.push(performance.now() - t);
        if (alive > 0) {
          result.leftover += 1;
          t = performance.now();
          while ((processGroupMembers(pgid)?.length ?? 0) > 0) await tick();
          result.drainMs.push(performance.now() - t);
        }
        result.runs += 1;
        resolve();
      })();
    });
  });
}

export async function measureGroupDrain(
  dirs: CommandDirs,
  policy: SandboxPolicy,
  runs: number,
): Promise<GroupDrain> {
  const args = rawBwrapArgv(['true'], dirs, policy, true);
  const result: GroupDrain = { runs: 0, leftover: 0, drainMs: [], scanMs: [] };
  for (let i = 0; i < runs; i++) await drainOnce(args, dirs.worktree, result);
  return result;
}
