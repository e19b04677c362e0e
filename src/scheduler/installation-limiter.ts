/**
 * Per-installation rate limit. BullMQ's open-source limiter works per queue, so one busy
 * installation could starve the others; this counts stage jobs started per installation in a
 * fixed window, and the worker delays a job over the limit to the window's end (not a failure).
 */
import type { Redis } from 'ioredis';

export interface RateLimit {
  /** Stage jobs one installation may start per window. */
  max: number;
  durationMs: number;
}

export type LimitDecision = { allowed: true } | { allowed: false; retryAt: number };

export interface InstallationLimiter {
  take(installationId: number, now?: number): Promise<LimitDecision>;
}

const INCR_WITH_TTL = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
`;

type Scripted = Redis & { autofixIncrWindow(key: string, ttl: number): Promise<number> };

export function createInstallationLimiter(
  redis: Redis,
  prefix: string,
  limit: RateLimit,
): InstallationLimiter {
  const r = redis as Scripted;
  if (typeof r.autofixIncrWindow !== 'function') {
    redis.defineCommand('autofixIncrWindow', { numberOfKeys: 1, lua: INCR_WITH_TTL });
  }
  return {
    async take(installationId, now = Date.now()) {
      const window = Math.floor(now / limit.durationMs);
      const key = `${prefix}:rate:${installationId}:${window}`;
      const count = await r.autofixIncrWindow(key, limit.durationMs * 2);
      if (count <= limit.max) return { allowed: true };
      // A little jitter so the delayed jobs of one installation do not all wake at once.
      return {
        allowed: false,
        retryAt: (window + 1) * limit.durationMs + Math.floor(Math.random() * 1000),
      };
    },
  };
}
