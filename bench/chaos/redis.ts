/**
 * The bench's own redis-server on a free loopback port, persisting to an append-only file in its
 * own directory: a restart (SIGTERM or SIGKILL, then a new server on the same port and directory)
 * keeps the queues, as a production Redis with AOF would. With SIGKILL the last second of writes
 * may be lost (`appendfsync everysec`), as in production.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { redisAnswers as answers } from '../../test/helpers/redis-answers.js';
import { trackGroup, untrackGroup } from './cleanup.js';

export interface BenchRedis {
  url: string;
  port: number;
  /** Whether a server is running now. */
  up(): boolean;
  stop(signal: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  start(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function startBenchRedis(dir: string, port: number): Promise<BenchRedis> {
  mkdirSync(dir, { recursive: true });
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const start = async (): Promise<void> => {
    const log = openSync(join(dir, 'redis.log'), 'a');
    const proc = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--save',
        '',
        // The queues must never be evicted (the app refuses to start otherwise).
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: ['ignore', log, log], detached: true },
    );
    closeSync(log);
    trackGroup(proc.pid);
    child = proc;
    exited = new Promise((resolve) =>
      proc.once('exit', () => {
        untrackGroup(proc.pid);
        resolve();
      }),
    );
    for (let i = 0; i < 200; i++) {
      if (await answers(url)) return;
      if (proc.exitCode !== null || proc.signalCode !== null) break;
      await sleep(50);
    }
    throw new Error(`redis-server on port ${port} did not start (see ${join(dir, 'redis.log')})`);
  };

  const stop = async (signal: 'SIGTERM' | 'SIGKILL'): Promise<void> => {
    const proc = child;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill(signal);
    await exited;
    child = undefined;
  };

  await start();
  return {
    url,
    port,
    up: () => !!child && child.exitCode === null && child.signalCode === null,
    stop,
    start,
  };
}
