/**
 * A private redis-server with `requirepass` (own-redis.ts waits with an unauthenticated PING,
 * which such a server refuses). Stopped again if it never answers.
 */
import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from '../../helpers/cli.js';
import { waitFor } from './harness.js';

export interface PasswordRedis {
  /** Without credentials. */
  url: string;
  /** With the password, as an operator would set REDIS_URL. */
  authUrl: string;
  stop(): Promise<void>;
}

export async function startPasswordRedis(password: string): Promise<PasswordRedis> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'].concat([
      '--requirepass',
      password,
    ]),
    { stdio: 'ignore' },
  );
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  const url = `redis://127.0.0.1:${port}`;
  const authUrl = `redis://:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  try {
    await waitFor(
      async () => {
        const redis = new Redis(authUrl, {
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
      'redis-server with requirepass',
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, authUrl, stop };
}
