/** A private redis-server for tests that need settings the shared one must not get. */
import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from '../../helpers/cli.js';
import { waitFor } from './harness.js';

export interface OwnRedis {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startOwnRedis(args: string[] = []): Promise<OwnRedis> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...args],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      const redis = new Redis(url, {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      redis.on('error', () => undefined);
      try {
        await redis.connect();
        return (await redis.ping()) === 'PONG' || undefined;
      } catch {
        return undefined;
      } finally {
        redis.disconnect();
      }
    },
    10_000,
    'redis-server',
  );
  return {
    url,
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGCONT');
        child.kill('SIGTERM');
      }),
  };
}
