/**
 * The real app as supervised child processes (`node dist/src/bin/autofix.js serve|worker`), each
 * in its own process group with its output appended to a log file. A slot restarts its process
 * whenever it exits: after the down time the controller chose when it killed it, or after 1 s
 * when it exited on its own (counted: a worker that cannot reach Redis at start exits, for one).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { trackGroup, untrackGroup } from './cleanup.js';

const CLI = fileURLToPath(new URL('../../src/bin/autofix.js', import.meta.url));
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export interface SlotOptions {
  name: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  logDir: string;
  /** Answers 200 once the process is up (serve's or the worker's metrics `/healthz`). */
  healthUrl: string;
}

export interface Slot {
  name: string;
  /** Processes started, the first included. */
  starts: number;
  /** Exits nobody asked for (crashes, refusals at start), with their exit code or signal. */
  unexpectedExits: string[];
  logFile: string;
  up(): boolean;
  /** Kills the process now; the slot starts a new one `downMs` later. */
  kill(signal: NodeJS.Signals, downMs: number): void;
  /** Resolves once the current process answers its health check (or after `timeoutMs`). */
  ready(timeoutMs?: number): Promise<boolean>;
  /** Stops for good: SIGTERM, SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** The parent's environment without anything that would change the app's behaviour. */
export function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (
      /^(APP_ID|PRIVATE_KEY|WEBHOOK_SECRET|GHE_|OPENAI_|AUTOFIX_|REDIS_URL|PORT|HOST|NODE_OPTIONS|LOG_LEVEL)/.test(
        key,
      )
    )
      continue;
    env[key] = value;
  }
  return env;
}

export function startSlot(options: SlotOptions): Slot {
  const logFile = join(options.logDir, `${options.name}.log`);
  let child: ChildProcess | undefined;
  let restartAt = 0;
  let killedByUs = false;
  let stopping = false;
  let exited: Promise<void> = Promise.resolve();

  const slot: Slot = {
    name: options.name,
    starts: 0,
    unexpectedExits: [],
    logFile,
    up: () => !!child && child.exitCode === null && child.signalCode === null,
    kill(signal, downMs) {
      if (!slot.up()) return;
      killedByUs = true;
      restartAt = Date.now() + downMs;
      child!.kill(signal);
      // Its git commands too (its process group), as when a container dies; a validation
      // command runs in a group of its own (under bwrap it dies with its parent).
      try {
        process.kill(-child!.pid!, signal);
      } catch {
        // already gone
      }
    },
    async ready(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline && !stopping) {
        if (slot.up()) {
          const res = await fetch(options.healthUrl, { signal: AbortSignal.timeout(1000) }).catch(
            () => undefined,
          );
          if (res?.ok) return true;
        }
        await sleep(100);
      }
      return false;
    },
    async stop(graceMs = 20_000) {
      stopping = true;
      if (!slot.up()) return;
      child!.kill('SIGTERM');
      const timer = setTimeout(() => {
        try {
          process.kill(-child!.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }, graceMs);
      await exited;
      clearTimeout(timer);
    },
  };

  const launch = (): void => {
    const log = openSync(logFile, 'a');
    writeSync(log, `\n===== ${new Date().toISOString()} start #${slot.starts + 1} =====\n`);
    const proc = spawn(process.execPath, [CLI, ...options.args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', log, log],
      detached: true,
    });
    closeSync(log);
    slot.starts++;
    trackGroup(proc.pid);
    child = proc;
    killedByUs = false;
    exited = new Promise((resolve) => {
      proc.once('exit', (code, signal) => {
        untrackGroup(proc.pid);
        resolve();
        if (stopping) return;
        if (!killedByUs) {
          slot.unexpectedExits.push(signal ?? `exit ${code}`);
          restartAt = Date.now() + 1000;
        }
        void sleep(Math.max(0, restartAt - Date.now())).then(() => {
          if (!stopping) launch();
        });
      });
    });
  };

  launch();
  return slot;
}

export { CLI };
