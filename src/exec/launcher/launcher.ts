/**
 * Runs a short command of ours (git) through the launcher process (launcher-source.ts) instead
 * of forking the worker for it. The launcher starts on first use and again after it died; a
 * command in flight when it died fails with a message saying so (never silently re-run: it may
 * have had its effect). While a command is in flight the launcher's channel keeps this process
 * alive, as the command's own pipes did; idle, it never holds the process open.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { LAUNCHER_SOURCE } from './launcher-source.js';

export interface LaunchRequest {
  file: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Written to the command's stdin, then closed. */
  input?: string;
  /** The command is killed (SIGKILL) after this long. */
  timeoutMs: number;
}

export interface LaunchResult {
  /** null when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: Buffer;
  stderr: Buffer;
}

interface Answer extends Partial<LaunchResult> {
  id: number;
  error?: string;
}

interface Pending {
  resolve: (r: LaunchResult) => void;
  reject: (err: Error) => void;
}

/** Why a command could not be run (it never started, or the launcher went away). */
export class LaunchError extends Error {}

interface Launcher {
  child: ChildProcess;
  pending: Map<number, Pending>;
}

let current: Launcher | undefined;
let nextId = 0;

function start(): Launcher {
  const child = spawn(process.execPath, ['-e', LAUNCHER_SOURCE], {
    // Nothing of the worker's environment: each request carries the command's own.
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    serialization: 'advanced',
  });
  const launcher: Launcher = { child, pending: new Map() };
  child.on('message', (answer: Answer) => settle(launcher, answer));
  const gone = (why: string): void => {
    if (current === launcher) current = undefined;
    for (const p of launcher.pending.values()) p.reject(new LaunchError(why));
    launcher.pending.clear();
  };
  child.on('error', (err) => gone(`the process launcher could not run: ${err.message}`));
  child.on('exit', (code, signal) =>
    gone(`the process launcher exited (${signal ?? `exit ${code ?? '?'}`}) while the command ran`),
  );
  child.unref();
  child.channel?.unref();
  return launcher;
}

function settle(launcher: Launcher, answer: Answer): void {
  const p = launcher.pending.get(answer.id);
  if (!p) return;
  launcher.pending.delete(answer.id);
  if (launcher.pending.size === 0) launcher.child.channel?.unref();
  if (answer.error !== undefined) p.reject(new LaunchError(answer.error));
  else
    p.resolve({
      code: answer.code ?? null,
      signal: answer.signal ?? null,
      timedOut: answer.timedOut ?? false,
      // Buffers arrive as Buffers (advanced serialization): no copy.
      stdout: answer.stdout ?? Buffer.alloc(0),
      stderr: answer.stderr ?? Buffer.alloc(0),
    });
}

/** Runs `request` to its end; rejects with LaunchError when it could not be run. */
export function launch(request: LaunchRequest): Promise<LaunchResult> {
  const launcher = current?.child.connected ? current : (current = start());
  const id = (nextId += 1);
  return new Promise<LaunchResult>((resolve, reject) => {
    launcher.pending.set(id, { resolve, reject });
    launcher.child.channel?.ref();
    launcher.child.send({ ...request, id, args: [...request.args] }, (err) => {
      if (!err || !launcher.pending.delete(id)) return;
      if (launcher.pending.size === 0) launcher.child.channel?.unref();
      reject(new LaunchError(`the process launcher did not take the command: ${err.message}`));
    });
  });
}

/** The launcher's pid, once started (for tests: what happens when it dies). */
export function launcherPid(): number | undefined {
  return current?.child.pid;
}
