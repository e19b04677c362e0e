/**
 * Fair share between installations on one stage queue, as BullMQ priorities (BullMQ's open-source
 * edition has no groups; a lower priority number is taken first, equal ones in the order added).
 *
 * Each installation's jobs are numbered in rounds (start-time fair queueing, with the round as
 * virtual time): a job's priority is the larger of the queue's current round (the round of the
 * jobs being served) and one more than the installation's last job. So an installation with 50
 * queued jobs holds 50 rounds, its next job the round after its last, while a newcomer's first job
 * joins the round being served: it is taken before every other installation's next job, and waits
 * only for a running stage to free its slot.
 *
 * Not a count of waiting jobs: a job numbered by its installation's backlog keeps that number, and
 * a long-waiting installation would fall behind every newcomer for ever. The current round is the
 * smallest number waiting, less one: read from BullMQ's own set of waiting jobs and from the
 * numbers given to jobs whose add has not landed yet (`pending`, dropped once the job exists, or
 * after a minute: its producer died). Nothing is kept in step with the jobs, so nothing needs
 * undoing when a job starts, fails or is removed; what is kept (`<prefix>:fair:<stage>`: the
 * largest number given, each installation's last) is only read against the round, and is pruned
 * whenever the queue is idle.
 */
import type { Redis } from 'ioredis';

/** BullMQ accepts priorities 1 … 2^21 − 1. */
export const MAX_PRIORITY = 2 ** 21 - 1;

/** Numbers restart from 1 at the first idle moment past this (far from MAX_PRIORITY). */
export const RENUMBER_AFTER = 2 ** 20;

/** A number given this long ago to a job that never appeared is given up (its producer died). */
const PENDING_FOR_MS = 60_000;

/** Kept state expires when a queue is not used for this long. */
const STATE_TTL_MS = 7 * 24 * 3600 * 1000;

/**
 * KEYS: 1 our state (hash), 2 our pending numbers (sorted set of job keys by number), 3 when each
 * was given (job keys by ms), 4 BullMQ's prioritized set, 5 wait, 6 active, 7 delayed, 8 paused,
 * 9 the job's own hash. ARGV: 1 installation id, 2 max priority, 3 renumber after, 4 state TTL,
 * 5 now, 6 pending for. A job that exists already (the same id added again) keeps its number.
 * Each pending number is dropped once (when its job has landed, or is given up): amortized O(1).
 */
const NEXT_PRIORITY = `
local existing = redis.call('HGET', KEYS[9], 'priority')
if existing and tonumber(existing) > 0 then return tonumber(existing) end
local now = tonumber(ARGV[5])
local function drop(job)
  redis.call('ZREM', KEYS[2], job)
  redis.call('ZREM', KEYS[3], job)
end
for _, job in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now - tonumber(ARGV[6]),
    'LIMIT', 0, 100)) do
  drop(job)
end
local held
while true do
  local lowest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
  if not lowest[1] then break end
  if redis.call('EXISTS', lowest[1]) == 0 then
    held = tonumber(lowest[2])
    break
  end
  drop(lowest[1])
end
local top = tonumber(redis.call('HGET', KEYS[1], 'top') or '0')
local queued = redis.call('ZCARD', KEYS[2]) + redis.call('ZCARD', KEYS[4])
  + redis.call('LLEN', KEYS[5]) + redis.call('LLEN', KEYS[6]) + redis.call('ZCARD', KEYS[7])
  + redis.call('LLEN', KEYS[8])
if queued == 0 then
  redis.call('DEL', KEYS[1])
  if top >= tonumber(ARGV[3]) then top = 0 end
end
local round = top
local waiting = redis.call('ZRANGE', KEYS[4], 0, 0, 'WITHSCORES')
if waiting[2] then
  -- The round being served never goes back (a newcomer's job does not move it).
  round = math.floor(tonumber(waiting[2]) / 4294967296) - 1
  round = math.max(round, tonumber(redis.call('HGET', KEYS[1], 'vt') or '0'))
  redis.call('HSET', KEYS[1], 'vt', round)
end
if held then round = math.min(round, held - 1) end
local field = 'i:' .. ARGV[1]
local last = tonumber(redis.call('HGET', KEYS[1], field) or '0')
local priority = math.min(math.max(round, last + 1, 1), tonumber(ARGV[2]))
redis.call('HSET', KEYS[1], 'top', math.max(top, priority), field, priority)
redis.call('ZADD', KEYS[2], priority, KEYS[9])
redis.call('ZADD', KEYS[3], now, KEYS[9])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[4]) end
return priority
`;

type Scripted = Redis & {
  autofixFairPriority(...args: (string | number)[]): Promise<number>;
};

/** Where a stage queue's fair-share state lives, under the app's key prefix. */
export function fairShareKey(prefix: string, stage: string): string {
  return `${prefix}:fair:${stage}`;
}

export interface FairPriority {
  /** The number of job `jobId` of `installationId` (atomic across producers and processes). */
  next(installationId: number, jobId: string): Promise<number>;
  /** The job has been added: its number no longer holds the round. */
  landed(jobId: string): Promise<void>;
}

/**
 * Fair priorities on one queue, whose BullMQ keys `toKey` names (BullMQ's `queue.toKey`: a
 * state's key, or a job's own hash by its id).
 */
export function createFairPriority(
  redis: Redis,
  stateKey: string,
  toKey: (type: string) => string,
): FairPriority {
  const r = redis as Scripted;
  if (typeof r.autofixFairPriority !== 'function') {
    redis.defineCommand('autofixFairPriority', { numberOfKeys: 9, lua: NEXT_PRIORITY });
  }
  const pending = `${stateKey}:pending`;
  const since = `${stateKey}:pending-since`;
  return {
    next: (installationId, jobId) =>
      r.autofixFairPriority(
        stateKey,
        pending,
        since,
        toKey('prioritized'),
        toKey('wait'),
        toKey('active'),
        toKey('delayed'),
        toKey('paused'),
        toKey(jobId),
        String(installationId),
        MAX_PRIORITY,
        RENUMBER_AFTER,
        STATE_TTL_MS,
        Date.now(),
        PENDING_FOR_MS,
      ),
    async landed(jobId) {
      await redis.multi().zrem(pending, toKey(jobId)).zrem(since, toKey(jobId)).exec();
    },
  };
}
