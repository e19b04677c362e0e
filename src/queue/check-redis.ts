/**
 * Startup check: Redis must answer, and must not evict keys (BullMQ loses jobs under any
 * eviction policy other than `noeviction`).
 */
import { Redis } from 'ioredis';
import { AutofixError } from '../errors.js';

export interface RedisCheck {
  version: string;
  maxmemoryPolicy: string;
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
    return { version, maxmemoryPolicy };
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
