/**
 * Runs one process as the leader of its own process group and supervises it to the end: output
 * collected with caps, the whole group ended (SIGTERM, then SIGKILL) on timeout or abort, and
 * whatever the leader leaves running in its group ended when it exits.
 */
import { spawn } from 'node:child_process';
import type { Logger } from '../logger.js';
import { CappedOutput } from './capped-output.js';
import { killProcessGroup } from './process-group.js';

export interface SuperviseOptions {
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  killGraceMs: number;
  maxOutputBytes: number;
  logger?: Logger;
}

export interface SupervisedOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** Set when the program could not be started at all. */
  spawnError?: string;
  stdout: CappedOutput;
  stderr: CappedOutput;
}

/** After the group is gone, how long we wait for pipes held open by escaped processes. */
const CLOSE_WAIT_MS = 2000;

export function superviseProcess(
  file: string,
  args: readonly string[],
  options: SuperviseOptions,
): Promise<SupervisedOutcome> {
  const stdout = new CappedOutput(options.maxOutputBytes);
  const stderr = new CappedOutput(options.maxOutputBytes);
  return new Promise((resolve) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env,
      detached: true, // leader of a new process group: the unit we kill
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let timedOut = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let ending: Promise<unknown> | null = null;
    let closed = false;

    const endGroup = () => {
      if (child.pid === undefined) return Promise.resolve();
      ending ??= killProcessGroup(child.pid, options.killGraceMs).then((r) => {
        if (r.survivors.length > 0)
          options.logger?.warn({ survivors: r.survivors }, 'processes survived');
      });
      return ending;
    };
    const onAbort = () => void endGroup();
    const timer = setTimeout(() => {
      if (exit !== null) return; // already ended; only its leftovers are being cleaned up
      timedOut = true;
      void endGroup();
    }, options.timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();

    child.stdout.on('data', (b: Buffer) => stdout.push(b));
    child.stderr.on('data', (b: Buffer) => stderr.push(b));

    const finish = (spawnError?: string) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({
        code: exit?.code ?? null,
        signal: exit?.signal ?? null,
        timedOut,
        ...(spawnError === undefined ? {} : { spawnError }),
        stdout,
        stderr,
      });
    };

    child.on('error', (err: NodeJS.ErrnoException) => {
      if (child.pid !== undefined) return; // errors after a successful spawn end in 'close'
      const notFound = err.code === 'ENOENT';
      exit = { code: notFound ? 127 : 126, signal: null };
      finish(`${notFound ? 'command not found' : 'cannot run command'}: ${file} (${err.code})`);
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // The leader is done; background processes it left in the group are not allowed to stay
      // (they would also hold our pipes open). Then give escaped processes a moment to let go.
      void endGroup().then(async () => {
        if (closed) return;
        await new Promise((r) => setTimeout(r, CLOSE_WAIT_MS).unref());
        child.stdout.destroy();
        child.stderr.destroy();
      });
    });
    child.on('close', () => {
      closed = true;
      void endGroup().then(() => finish());
    });
  });
}
