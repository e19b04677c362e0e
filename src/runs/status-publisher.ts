/**
 * The run's status comment, published off the stages' critical path. A stage hands over the facts
 * it wants shown and goes on; the publisher edits the comment in the background:
 *
 * - **Ordered across workers.** Every version carries a revision (stage, attempt, sequence; the
 *   run's ending outranks every stage). The newest version and the comment's id live in Redis;
 *   a worker always writes the newest version it finds there, and after each edit looks again
 *   and writes once more when a newer one arrived meanwhile. So a late edit from a slow worker
 *   never leaves an older version showing.
 * - **Coalesced.** Versions submitted within `debounceMs` become one edit: Octokit spaces an
 *   installation's writes ≥ 1 s apart, and an edit queued before the next stage's own write (the
 *   pull request) would delay it.
 * - **Created late.** The comment is created once a run has lasted `createAfterMs` (a run that
 *   is over by then gets it with its final state): creating it is a write that notifies, and the
 *   next such write (the pull request) must come ≥ 3 s after it. Only one worker creates it (a
 *   lock in Redis); the others wait for its id.
 * - **Flushed at the end.** The run's ending waits for its final version to be written.
 * Every GitHub call is best effort, as before: a failed edit is logged, never fails the run.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../logger.js';

/** How the publisher reaches the comment on GitHub (the run's StatusComment provides it). */
export interface StatusTarget {
  /** The comment a previous attempt created, found by its marker. */
  find(): Promise<number | undefined>;
  create(body: string): Promise<number | undefined>;
  update(commentId: number, body: string): Promise<void>;
}

export interface StatusVersion {
  runId: string;
  rev: number;
  body: string;
  /** Epoch ms the run started (webhook accepted). */
  startedAt: number;
  target: StatusTarget;
  /** The comment id this worker already knows (job data). */
  commentId?: number;
}

export interface StatusPublisher {
  /** Shows this version soon; returns at once. */
  submit(version: StatusVersion): void;
  /** Writes this run's newest version now (creating the comment if needed) and waits for it. */
  flush(runId: string): Promise<void>;
  /** The comment id once known (to carry in job data). */
  commentId(runId: string): number | undefined;
}

/** Revision of the `seq`-th version a stage's attempt submits; the run's ending outranks all. */
export function statusRevision(stageIndex: number, attempt: number, seq: number): number {
  return (stageIndex + 1) * 1e9 + Math.min(attempt, 999) * 1e6 + Math.min(seq, 999_999);
}
export const ENDING_STAGE_INDEX = 99;

const OFFER = `
local current = tonumber(redis.call('HGET', KEYS[1], 'rev') or '-1')
if tonumber(ARGV[1]) > current then
  redis.call('HSET', KEYS[1], 'rev', ARGV[1], 'body', ARGV[2])
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return redis.call('HMGET', KEYS[1], 'rev', 'body')
`;
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;
const TTL_MS = 7 * 24 * 3600 * 1000;
const LOCK_MS = 30_000;

type Scripted = Redis & {
  autofixStatusOffer(key: string, rev: number, body: string, ttl: number): Promise<string[]>;
  autofixStatusRelease(key: string, token: string): Promise<number>;
};

interface RunState {
  pending?: StatusVersion;
  timer?: NodeJS.Timeout;
  running?: Promise<void>;
  commentId?: number;
}

/** What the publisher's steps share: its settings and the runs it publishes. */
interface Publisher {
  redis: Scripted;
  prefix: string;
  log: Logger;
  debounceMs: number;
  createAfterMs: number;
  now: () => number;
  runs: Map<string, RunState>;
}

export function createStatusPublisher(options: {
  redis: Redis;
  prefix: string;
  log: Logger;
  debounceMs?: number;
  createAfterMs?: number;
  now?: () => number;
}): StatusPublisher {
  const p: Publisher = {
    redis: scripted(options.redis),
    prefix: options.prefix,
    log: options.log,
    debounceMs: options.debounceMs ?? 400,
    createAfterMs: options.createAfterMs ?? 3000,
    now: options.now ?? Date.now,
    runs: new Map(),
  };
  return {
    submit(version) {
      const state = stateOf(p, version.runId);
      if (version.commentId !== undefined) state.commentId ??= version.commentId;
      schedule(p, state, version, p.debounceMs);
    },
    async flush(runId) {
      const state = stateOf(p, runId);
      clearTimeout(state.timer);
      state.timer = undefined;
      await run(p, state, true);
      p.runs.delete(runId);
    },
    commentId: (runId) => p.runs.get(runId)?.commentId,
  };
}

/** The connection with the publisher's scripts defined (once per connection). */
function scripted(connection: Redis): Scripted {
  const redis = connection as Scripted;
  if (typeof redis.autofixStatusOffer !== 'function') {
    redis.defineCommand('autofixStatusOffer', { numberOfKeys: 1, lua: OFFER });
    redis.defineCommand('autofixStatusRelease', { numberOfKeys: 1, lua: RELEASE });
  }
  return redis;
}

const keyOf = (p: Publisher, runId: string): string => `${p.prefix}:status:${runId}`;
const lockKeyOf = (p: Publisher, runId: string): string => `${p.prefix}:status-lock:${runId}`;

function stateOf(p: Publisher, runId: string): RunState {
  let state = p.runs.get(runId);
  if (!state) p.runs.set(runId, (state = {}));
  return state;
}

/** The comment's id: known here, recorded in Redis, found by marker, or created (one worker). */
async function commentIdFor(
  p: Publisher,
  state: RunState,
  version: StatusVersion,
  body: string,
): Promise<{ id: number | undefined; created: boolean }> {
  const known = state.commentId ?? version.commentId;
  if (known !== undefined) return { id: known, created: false };
  const { redis } = p;
  const key = keyOf(p, version.runId);
  const lockKey = lockKeyOf(p, version.runId);
  for (let waited = 0; waited <= LOCK_MS; waited += 200) {
    const recorded = await redis.hget(key, 'commentId');
    if (recorded) return { id: Number(recorded), created: false };
    const token = `${process.pid}:${Math.random()}`;
    if (await redis.set(lockKey, token, 'PX', LOCK_MS, 'NX')) {
      try {
        const found = await version.target.find();
        const id = found ?? (await version.target.create(body));
        if (id !== undefined) await redis.hset(key, 'commentId', String(id));
        return { id, created: found === undefined && id !== undefined };
      } finally {
        await redis.autofixStatusRelease(lockKey, token).catch(() => 0);
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { id: undefined, created: false };
}

/**
 * Writes the newest version, and again while a newer one arrives. Answers how long to wait
 * instead when it is too early to create the comment (the caller schedules the retry).
 */
async function write(
  p: Publisher,
  state: RunState,
  version: StatusVersion,
  immediate: boolean,
): Promise<{ retryInMs: number } | undefined> {
  const runKey = keyOf(p, version.runId);
  const [revText, newestBody] = await p.redis.autofixStatusOffer(
    runKey,
    version.rev,
    version.body,
    TTL_MS,
  );
  let rev = Number(revText);
  let body = newestBody ?? version.body;
  if (!immediate && state.commentId === undefined && version.commentId === undefined) {
    const wait = version.startedAt + p.createAfterMs - p.now();
    // Too early to create it: try again then (or at the run's end, whichever comes first).
    if (wait > 0 && !(await p.redis.hget(runKey, 'commentId'))) return { retryInMs: wait };
  }
  const { id, created } = await commentIdFor(p, state, version, body);
  if (id === undefined) return undefined;
  state.commentId = id;
  if (!created) await version.target.update(id, body);
  for (;;) {
    const [latestRev, latestBody] = await p.redis.hmget(runKey, 'rev', 'body');
    if (!latestRev || Number(latestRev) <= rev || latestBody === null || latestBody === undefined)
      return undefined;
    rev = Number(latestRev);
    body = latestBody;
    await version.target.update(id, body);
  }
}

/** Writes the run's pending versions after the writes already under way (one at a time). */
function run(p: Publisher, state: RunState, immediate: boolean): Promise<void> {
  const go = async (): Promise<void> => {
    while (state.pending) {
      const version = state.pending;
      state.pending = undefined;
      try {
        const later = await write(p, state, version, immediate);
        // Pending again, on a timer (unless a newer version came meanwhile): looping here would
        // ask Redis again and again until then.
        if (later && !state.pending) return schedule(p, state, version, later.retryInMs);
      } catch (err) {
        p.log.warn({ err }, 'could not publish the status comment');
      }
    }
  };
  const previous = state.running ?? Promise.resolve();
  const next = previous.then(go);
  state.running = next;
  void next.finally(() => {
    if (state.running === next) state.running = undefined;
  });
  return next;
}

/** Keeps the newest version pending and (re)starts the timer that writes it. */
function schedule(p: Publisher, state: RunState, version: StatusVersion, delayMs: number): void {
  if (!state.pending || state.pending.rev <= version.rev) state.pending = version;
  clearTimeout(state.timer);
  state.timer = setTimeout(() => {
    state.timer = undefined;
    void run(p, state, false);
  }, delayMs);
  state.timer.unref();
}
