/**
 * Startup check: Redis must answer, and must not evict keys (BullMQ loses jobs under any
 * eviction policy other than `noeviction`). Also finds out whether Redis answers a client that
 * sends no password: the queues hold issue text and run state, and whoever can reach the port
 * could read them or queue work of their own.
 */
import { Redis } from 'ioredis';
import { AutofixError } from '../errors.js';

export interface RedisCheck {
  version: string;
  maxmemoryPolicy: string;
  /** Redis answered PING on a connection that sent no credentials (no requirepass, open ACL). */
  acceptsAnonymous: boolean;
}

/**
 * A second connection to the same server without the URL's credentials: the URL may carry a
 * password that Redis does not ask for. Only a PONG counts as open; NOAUTH (or any failure)
 * does not.
 */
async function answersAnonymous(url: string, timeoutMs: number): Promise<boolean> {
  // ioredis lets the URL's credentials win over options: take them out of the URL itself.
  let anonymous: URL;
  try {
    anonymous = new URL(url);
  } catch {
    return false;
  }
  anonymous.username = '';
  anonymous.password = '';
  anonymous.pathname = '';
  for (const key of ['username', 'password', 'db']) anonymous.searchParams.delete(key);
  const redis = new Redis(anonymous.toString(), {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
    enableReadyCheck: false,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** Strips a password from a Redis URL before it goes into a message. */
export function displayRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '****';
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}

export async function checkRedis(url: string, timeoutMs = 3000): Promise<RedisCheck> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  let lastError: Error | undefined;
  redis.on('error', (err: Error) => {
    lastError = err; // the socket's own reason (ECONNREFUSED…) beats ioredis' "Connection is closed"
  });
  try {
    await redis.connect();
    const info = await redis.info('server');
    const policy = (await redis.config('GET', 'maxmemory-policy')) as string[];
    const maxmemoryPolicy = policy[1] ?? 'unknown';
    const version = /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
    if (maxmemoryPolicy !== 'noeviction') {
      throw new AutofixError(
        'CONFIG_INVALID',
        `Redis at REDIS_URL=${displayRedisUrl(url)} has maxmemory-policy=${maxmemoryPolicy}; queued jobs would be evicted. ` +
          'Fix: set `maxmemory-policy noeviction` in redis.conf (or run `redis-cli CONFIG SET maxmemory-policy noeviction`).',
        { recoverable: false },
      );
    }
    return { version, maxmemoryPolicy, acceptsAnonymous: await answersAnonymous(url, timeoutMs) };
  } catch (err) {
    if (err instanceof AutofixError) throw err;
    throw new AutofixError(
      'CONFIG_INVALID',
      `Cannot reach Redis at REDIS_URL=${displayRedisUrl(url)}: ${(lastError ?? (err as Error)).message.replace(/\.$/, '')}. ` +
        'Start Redis or set REDIS_URL to a reachable server.',
      { recoverable: false, cause: err },
    );
  } finally {
    redis.disconnect();
  }
}
