/**
 * Everything the bench starts is undone here, in reverse order, once: on a normal end, on an
 * error, and on Ctrl-C/SIGTERM. Child processes get their own process group (killed as a group),
 * and a last sweep kills any process whose command line names the bench's temporary directory
 * (validation commands a SIGKILLed worker left behind run with paths below it).
 */
import { readdirSync, readFileSync } from 'node:fs';

type Step = { name: string; run: () => Promise<void> | void };

const steps: Step[] = [];
const groups = new Set<number>();
let token: string | undefined;
let running: Promise<void> | undefined;

/** Registers an undo step; steps run last-registered first. */
export function onCleanup(name: string, run: () => Promise<void> | void): void {
  steps.push({ name, run });
}

/** A child's process group (spawned with `detached: true`), killed with SIGKILL at the end. */
export function trackGroup(pid: number | undefined): void {
  if (pid) groups.add(pid);
}

export function untrackGroup(pid: number | undefined): void {
  if (pid) groups.delete(pid);
}

/** Processes whose command line contains this string are ours (the temporary directory). */
export function setProcessToken(value: string): void {
  token = value;
}

function killGroups(): void {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  groups.clear();
}

/** Pids of live processes (not this one) whose command line contains the token. */
export function strayProcesses(): number[] {
  if (!token) return [];
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (!cmdline.includes(token)) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
      if (state !== 'Z' && state !== 'X') found.push(Number(name));
    } catch {
      // exited while we looked
    }
  }
  return found;
}

function killStrays(): number {
  const pids = strayProcesses();
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return pids.length;
}

/** Runs every step once (later calls wait for the first). */
export function cleanupAll(): Promise<void> {
  running ??= (async () => {
    for (const step of steps.splice(0).reverse()) {
      try {
        await step.run();
      } catch (err) {
        console.error(`chaos: cleanup "${step.name}" failed: ${(err as Error).message}`);
      }
    }
    killGroups();
    killStrays();
  })();
  return running;
}

/** Ctrl-C and SIGTERM clean up and exit; a second signal exits at once (after a sync sweep). */
export function installSignalHandlers(): void {
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (signalled) {
      killGroups();
      killStrays();
      process.exit(130);
    }
    signalled = true;
    console.error(`\nchaos: ${signal}: cleaning up…`);
    void cleanupAll().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // Whatever happens, no process of ours outlives the bench.
  process.on('exit', () => {
    killGroups();
    killStrays();
  });
}
