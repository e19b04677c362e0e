/**
 * Ending a command means ending every process it started. Each command runs as the leader of its
 * own process group; we signal the whole group (SIGTERM, then SIGKILL after a grace period) and
 * wait until no live member is left. Zombies do not count: orphans are reparented to PID 1,
 * which in some containers never reaps them, yet they hold no resources and run no code.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Polls back off from 1 ms: most leftovers of a command that exited are gone within a few. */
const POLL_MS = [1, 2, 4, 8, 16, 50] as const;
/** How long we wait for the kernel to finish off a group after SIGKILL. */
const AFTER_KILL_MS = 2000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Live (non-zombie) members of a process group, from /proc; null where /proc is unavailable. */
export function processGroupMembers(pgid: number): number[] | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  const members: number[] = [];
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // Fields after the command name, which is in parentheses and may itself contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const state = fields[0];
    const pgrp = Number(fields[2]);
    if (pgrp === pgid && state !== 'Z' && state !== 'X') members.push(Number(name));
  }
  return members;
}

export function processGroupAlive(pgid: number): boolean {
  const members = processGroupMembers(pgid);
  if (members !== null) return members.length > 0;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

async function waitGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (let poll = 0; ; poll++) {
    if (!processGroupAlive(pgid)) return true;
    if (Date.now() >= deadline) return false;
    await sleep(POLL_MS[Math.min(poll, POLL_MS.length - 1)]!);
  }
}

/**
 * SIGTERM to the group, SIGKILL to whatever is left after `graceMs`. Resolves once the group is
 * empty; `forced` says whether SIGKILL was needed, `survivors` lists any pid still alive (only
 * possible for processes that are stuck in the kernel).
 */
export async function killProcessGroup(
  pgid: number,
  graceMs: number,
): Promise<{ forced: boolean; survivors: number[] }> {
  if (!processGroupAlive(pgid)) return { forced: false, survivors: [] };
  signalGroup(pgid, 'SIGTERM');
  if (await waitGone(pgid, graceMs)) return { forced: false, survivors: [] };
  signalGroup(pgid, 'SIGKILL');
  await waitGone(pgid, AFTER_KILL_MS);
  return { forced: true, survivors: processGroupMembers(pgid) ?? [] };
}
