/**
 * A private redis-server for tests that need settings the shared one must not get — extra flags,
 * or a password (`requirepass`; it is then waited for with the password, since such a server
 * refuses an unauthenticated PING). Stopped again if it never answers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../../helpers/cli.js';
import { redisAnswers } from '../../helpers/redis-answers.js';
import { waitFor } from './harness.js';
import { WAIT_MS } from '../../helpers/deadlines.js';

export interface OwnRedis {
  /** Without credentials. */
  url: string;
  /** With the password when there is one, as an operator would set REDIS_URL. */
  authUrl: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startOwnRedis(
  args: string[] = [],
  options: { password?: string; port?: number } = {},
): Promise<OwnRedis> {
  const port = options.port ?? (await freePort());
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      ...(options.password ? ['--requirepass', options.password] : []),
      ...args,
    ],
    { stdio: 'ignore' },
  );
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGCONT');
      child.kill('SIGTERM');
    });
  const url = `redis://127.0.0.1:${port}`;
  const authUrl = options.password
    ? `redis://:${encodeURIComponent(options.password)}@127.0.0.1:${port}`
    : url;
  try {
    await waitFor(async () => (await redisAnswers(authUrl)) || undefined, WAIT_MS, 'redis-server');
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, authUrl, child, stop };
}
