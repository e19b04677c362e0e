/**
 * The app's run store: each run a Redis hash `<prefix>:run:<id>` (`rev`, `json`), written by
 * compare-and-set on `rev` (one Lua script, so it works on a shared connection), kept 30 days
 * after its last write and for as long as it is parked. Beside it, `<prefix>:runs` (run ids by
 * acceptance time) and the parked indexes `<prefix>:runs:parked` (run → `owner/repo#n`) and
 * `<prefix>:runs:parked-on` (`owner/repo#n` → run), kept in step by the same script.
 */
import type { Redis } from 'ioredis';
import { RunNotFoundError, type Run, type RunStore } from './run-record.js';
import { parkedOnKey, RUN_RECORD_TTL_MS } from './run-store-keys.js';

const CREATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'rev', '0', 'json', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[5])
return 1
`;

const WRITE = `
local rev = redis.call('HGET', KEYS[1], 'rev')
if not rev then return -1 end
if rev ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'rev', ARGV[3], 'json', ARGV[2])
local old = redis.call('HGET', KEYS[2], ARGV[6])
if old then
  redis.call('HDEL', KEYS[2], ARGV[6])
  if redis.call('HGET', KEYS[3], old) == ARGV[6] then redis.call('HDEL', KEYS[3], old) end
end
if ARGV[5] ~= '' then
  redis.call('HSET', KEYS[2], ARGV[6], ARGV[5])
  redis.call('HSET', KEYS[3], ARGV[5], ARGV[6])
  redis.call('PERSIST', KEYS[1])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
end
return 1
`;

const DISCARD = `
if redis.call('HGET', KEYS[1], 'rev') ~= '0' then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1
`;

type Scripted = Redis & {
  autofixRunCreate(k1: string, k2: string, ...args: (string | number)[]): Promise<number>;
  autofixRunDiscard(k1: string, k2: string, runId: string): Promise<number>;
  autofixRunWrite(
    k1: string,
    k2: string,
    k3: string,
    ...args: (string | number)[]
  ): Promise<number>;
};

/** Attempts of a compare-and-set before giving up (each loses only to another write). */
const MAX_TRIES = 20;

export function createRedisRunStore(
  redis: Redis,
  prefix: string,
  now: () => number = Date.now,
): RunStore {
  const r = redis as Scripted;
  if (typeof r.autofixRunWrite !== 'function') {
    redis.defineCommand('autofixRunCreate', { numberOfKeys: 2, lua: CREATE });
    redis.defineCommand('autofixRunWrite', { numberOfKeys: 3, lua: WRITE });
    redis.defineCommand('autofixRunDiscard', { numberOfKeys: 2, lua: DISCARD });
  }
  const runKey = (id: string): string => `${prefix}:run:${id}`;
  const indexKey = `${prefix}:runs`;
  const parkedKey = `${prefix}:runs:parked`;
  const parkedOnIndex = `${prefix}:runs:parked-on`;

  const read = async (runId: string): Promise<Run | undefined> => {
    const json = await redis.hget(runKey(runId), 'json');
    return json === null ? undefined : (JSON.parse(json) as Run);
  };

  const write = (current: Run, next: Run): Promise<number> => {
    const parkedOn =
      next.parked && !next.ending
        ? parkedOnKey(next.repository.fullName, next.facts.conversation)
        : '';
    return r.autofixRunWrite(
      runKey(current.runId),
      parkedKey,
      parkedOnIndex,
      String(current.rev),
      JSON.stringify(next),
      String(next.rev),
      RUN_RECORD_TTL_MS,
      parkedOn,
      current.runId,
    );
  };

  return {
    async create(run) {
      const created = await r.autofixRunCreate(
        runKey(run.runId),
        indexKey,
        JSON.stringify({ ...run, rev: 0 }),
        RUN_RECORD_TTL_MS,
        run.acceptedAt,
        run.runId,
        now() - RUN_RECORD_TTL_MS,
      );
      return created === 1;
    },
    get: read,
    async discard(runId) {
      await r.autofixRunDiscard(runKey(runId), indexKey, runId);
    },
    async update(runId, change) {
      for (let tries = 0; tries < MAX_TRIES; tries++) {
        const current = await read(runId);
        if (!current) throw new RunNotFoundError(runId);
        const changed = change(current);
        if (!changed) return current;
        const next = { ...changed, rev: current.rev + 1, updatedAt: now() };
        const written = await write(current, next);
        if (written === 1) return next;
        if (written === -1) throw new RunNotFoundError(runId);
      }
      throw new Error(`run ${runId}: ${MAX_TRIES} concurrent writes in a row; not written`);
    },
    recent: (limit) => redis.zrevrange(indexKey, 0, Math.max(0, limit - 1)),
    parked: () => redis.hkeys(parkedKey),
    async parkedOn(repo, conversation) {
      return (await redis.hget(parkedOnIndex, parkedOnKey(repo, conversation))) ?? undefined;
    },
  };
}
