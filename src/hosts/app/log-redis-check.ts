import type { Logger } from '../../logger.js';
import { displayRedisUrl, type RedisCheck } from '../../scheduler/check-redis.js';

/** What `serve` and `worker` say about Redis at start, with a warning when it needs no password. */
export function logRedisCheck(check: RedisCheck, redisUrl: string, log: Logger): void {
  log.info(`Redis ${check.version} reachable (maxmemory-policy=${check.maxmemoryPolicy})`);
  if (!check.acceptsAnonymous) return;
  log.warn(
    `Redis at REDIS_URL=${displayRedisUrl(redisUrl)} accepts connections without a password: ` +
      'anything that can reach its port (another container, a process on this host) can read ' +
      'queued issues and run state and queue work of its own. ' +
      'Fix: set `requirepass` (or an ACL user) in Redis and put the password in REDIS_URL ' +
      '(redis://:PASSWORD@host:6379).',
  );
}
