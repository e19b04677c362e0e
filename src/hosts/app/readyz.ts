import type { Redis } from 'ioredis';
import type { Worker } from 'bullmq';
import type { HttpHandler } from '../../http-handler.js';

/** Why the process cannot do its work now, or undefined when it can. */
export type ReadinessProbe = () => Promise<string | undefined>;

/** How long Redis gets to answer PING before the process counts as not ready. */
const PING_TIMEOUT_MS = 1000;

/**
 * Readiness: Redis answers and every stage worker is running. `/healthz` only says the process
 * is alive (restart it when not); `/readyz` says whether it can take work now (route none to it
 * when not), so a Redis outage takes it out of rotation instead of killing it.
 */
export function readinessProbe(
  redis: Redis,
  workers: () => readonly Worker[] = () => [],
): ReadinessProbe {
  return async () => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<string>((resolve) => {
      timer = setTimeout(
        () => resolve(`Redis did not answer PING within ${PING_TIMEOUT_MS} ms`),
        PING_TIMEOUT_MS,
      );
    });
    const ping = redis.ping().then(
      () => undefined,
      (err: unknown) => `Redis is unreachable: ${(err as Error).message}`,
    );
    const redisProblem = await Promise.race([ping, timeout]).finally(() => clearTimeout(timer));
    if (redisProblem) return redisProblem;
    const stopped = workers()
      .filter((w) => !w.isRunning())
      .map((w) => w.name);
    return stopped.length > 0 ? `stage workers not running: ${stopped.join(', ')}` : undefined;
  };
}

export function readyz(probe: ReadinessProbe): HttpHandler {
  return async (req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/readyz') return false;
    const reason = await probe();
    const body = reason === undefined ? { status: 'ready' } : { status: 'not ready', reason };
    res
      .writeHead(reason === undefined ? 200 : 503, { 'content-type': 'application/json' })
      .end(JSON.stringify(body));
    return true;
  };
}
