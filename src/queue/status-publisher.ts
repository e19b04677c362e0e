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

export function createStatusPublisher(options: {
  redis: Redis;
  prefix: string;
  log: Logger;
  debounceMs?: number;
  createAfterMs?: number;
  now?: () => number;
}): StatusPublisher {
  const redis = options.redis as Scripted;
  if (typeof redis.autofixStatusOffer !== 'function') {
    redis.defineCommand('autofixStatusOffer', { numberOfKeys: 1, lua: OFFER });
    redis.defineCommand('autofixStatusRelease', { numberOfKeys: 1, lua: RELEASE });
  }
  const debounceMs = options.debounceMs ?? 400;
  const createAfterMs = options.createAfterMs ?? 3000;
  const now = options.now ?? Date.now;
  const runs = new Map<string, RunState>();
  const key = (runId: string): string => `${options.prefix}:status:${runId}`;
  const lockKey = (runId: string): string => `${options.prefix}:status-lock:${runId}`;

  const stateOf = (runId: string): RunState => {
    let state = runs.get(runId);
    if (!state) runs.set(runId, (state = {}));
    return state;
  };

  /** The comment's id: known here, recorded in Redis, found by marker, or created (one worker). */
  async function commentIdFor(
    state: RunState,
    version: StatusVersion,
    body: string,
  ): Promise<{ id: number | undefined; created: boolean }> {
    const known = state.commentId ?? version.commentId;
    if (known !== undefined) return { id: known, created: false };
    for (let waited = 0; waited <= LOCK_MS; waited += 200) {
      const recorded = await redis.hget(key(version.runId), 'commentId');
      if (recorded) return { id: Number(recorded), created: false };
      const token = `${process.pid}:${Math.random()}`;
      if (await redis.set(lockKey(version.runId), token, 'PX', LOCK_MS, 'NX')) {
        try {
          const found = await version.target.find();
          const id = found ?? (await version.target.create(body));
          if (id !== undefined) await redis.hset(key(version.runId), 'commentId', String(id));
          return { id, created: found === undefined && id !== undefined };
        } finally {
          await redis.autofixStatusRelease(lockKey(version.runId), token).catch(() => 0);
        }
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    return { id: undefined, created: false };
  }

  /** Writes the newest version, and again while a newer one arrives. */
  async function write(state: RunState, version: StatusVersion, immediate: boolean): Promise<void> {
    const runKey = key(version.runId);
    const [revText, newestBody] = await redis.autofixStatusOffer(
      runKey,
      version.rev,
      version.body,
      TTL_MS,
    );
    let rev = Number(revText);
    let body = newestBody ?? version.body;
    if (!immediate && state.commentId === undefined && version.commentId === undefined) {
      const wait = version.startedAt + createAfterMs - now();
      if (wait > 0 && !(await redis.hget(runKey, 'commentId'))) {
        // Too early to create it: try again then (or at the run's end, whichever comes first).
        schedule(state, version, wait);
        return;
      }
    }
    const { id, created } = await commentIdFor(state, version, body);
    if (id === undefined) return;
    state.commentId = id;
    if (!created) await version.target.update(id, body);
    for (;;) {
      const [latestRev, latestBody] = await redis.hmget(runKey, 'rev', 'body');
      if (!latestRev || Number(latestRev) <= rev || latestBody === null || latestBody === undefined)
        return;
      rev = Number(latestRev);
      body = latestBody;
      await version.target.update(id, body);
    }
  }

  function run(state: RunState, immediate: boolean): Promise<void> {
    const go = async (): Promise<void> => {
      while (state.pending) {
        const version = state.pending;
        state.pending = undefined;
        try {
          await write(state, version, immediate);
        } catch (err) {
          options.log.warn({ err }, 'could not publish the status comment');
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

  function schedule(state: RunState, version: StatusVersion, delayMs: number): void {
    if (!state.pending || state.pending.rev <= version.rev) state.pending = version;
    clearTimeout(state.timer);
    state.timer = setTimeout(() => {
      state.timer = undefined;
      void run(state, false);
    }, delayMs);
    state.timer.unref();
  }

  return {
    submit(version) {
      const state = stateOf(version.runId);
      if (version.commentId !== undefined) state.commentId ??= version.commentId;
      schedule(state, version, debounceMs);
    },
    async flush(runId) {
      const state = stateOf(runId);
      clearTimeout(state.timer);
      state.timer = undefined;
      await run(state, true);
      runs.delete(runId);
    },
    commentId: (runId) => runs.get(runId)?.commentId,
  };
}
