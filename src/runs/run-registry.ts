/**
 * Redis bookkeeping around runs, next to BullMQ's own keys (same prefix):
 *
 * - `<prefix>:delivery:<trigger key>` → what became of a trigger (run id or `busy:<run>`), kept 3
 *   days (GitHub's redelivery window), so a redelivery or a re-sent body is a no-op; the same
 *   record under the `X-GitHub-Delivery` id tells the reconciler the delivery was handled;
 * - `<prefix>:run-lock:<owner/repo>#<issue>` → the issue's active run id: one run per issue. It is
 *   released when the run ends and expires on its own (refreshed at each stage) if a run is lost;
 * - `<prefix>:busy-replied:<run>` → the "already working on it" reply was posted once;
 * - `<prefix>:gone:<installation>[:<owner/repo>]` → when the installation was deleted or suspended
 *   (or the repository removed from it), epoch ms, kept 3 days: a run accepted before that can no
 *   longer reach the repository, and its stage jobs end without a word (intake/installation-gone.ts).
 *
 * The claim is one Lua script so that two triggers racing for one issue cannot both win.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

const CLAIM = `
local seen = redis.call('GET', KEYS[1])
if seen then return {'duplicate', seen} end
local active = redis.call('GET', KEYS[2])
if active and active ~= ARGV[1] then
  redis.call('SET', KEYS[1], 'busy:' .. active, 'PX', ARGV[3])
  return {'busy', active}
end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
return {'claimed', ARGV[1]}
`;

/** Deletes or refreshes a lock only while it still belongs to this run. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;
const REFRESH = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`;

export const LOCK_TTL_MS = 6 * 3600_000;
export const DELIVERY_TTL_MS = 3 * 24 * 3600_000;

export type ClaimResult =
  | { kind: 'claimed'; runId: string }
  | { kind: 'duplicate'; previous: string }
  | { kind: 'busy'; activeRunId: string };

export interface RunKey {
  repoFullName: string;
  issueNumber: number;
}

type Scripted = Redis & {
  autofixClaimRun(k1: string, k2: string, ...args: (string | number)[]): Promise<[string, string]>;
  autofixReleaseRun(k1: string, runId: string): Promise<number>;
  autofixRefreshRun(k1: string, runId: string, ttl: number): Promise<number>;
};

export interface RunRegistry {
  claim(deliveryId: string, run: RunKey, runId: string): Promise<ClaimResult>;
  /** Records that the trigger (and its delivery) started `runId` (after its first job was queued). */
  markDelivered(ids: readonly string[], runId: string): Promise<void>;
  release(run: RunKey, runId: string): Promise<void>;
  /** Undoes a claim whose first job could not be enqueued: the trigger may be retried. */
  forget(ids: readonly string[], run: RunKey, runId: string): Promise<void>;
  /** Extends the issue lock while the run holds it (`ttlMs`: default LOCK_TTL_MS). */
  refresh(run: RunKey, runId: string, ttlMs?: number): Promise<void>;
  /** True the first time it is called for a run: post "already working on it" once. */
  firstBusyReply(activeRunId: string): Promise<boolean>;
  /**
   * A short lock by name (one PR's CI admission): its release, or undefined while another holder
   * has it. It expires after `ttlMs`, so a holder that died frees it.
   */
  lock(name: string, ttlMs: number): Promise<(() => Promise<void>) | undefined>;
  /** Records that the app lost the installation (or one repository of it) at `at` (epoch ms). */
  markGone(scope: GoneScope, at: number): Promise<void>;
  /** When the app lost the run's installation or repository (the later mark), if it did. */
  goneSince(installationId: number, repoFullName: string): Promise<number | undefined>;
}

/** What the app lost: a whole installation, or some repositories of it. */
export interface GoneScope {
  installationId: number;
  /** `owner/name`s; absent: every repository of the installation. */
  repositories?: readonly string[];
}

/** Where the issues' active-run locks live: a run holds one until it has ended. */
export const runLockPrefix = (prefix: string): string => `${prefix}:run-lock:`;

export function createRunRegistry(redis: Redis, prefix: string): RunRegistry {
  const r = redis as Scripted;
  if (typeof r.autofixClaimRun !== 'function') {
    redis.defineCommand('autofixClaimRun', { numberOfKeys: 2, lua: CLAIM });
    redis.defineCommand('autofixReleaseRun', { numberOfKeys: 1, lua: RELEASE });
    redis.defineCommand('autofixRefreshRun', { numberOfKeys: 1, lua: REFRESH });
  }
  const deliveryKey = (id: string): string => `${prefix}:delivery:${id}`;
  const lockKey = (run: RunKey): string =>
    `${runLockPrefix(prefix)}${run.repoFullName}#${run.issueNumber}`;
  return {
    async claim(deliveryId, run, runId) {
      const [kind, value] = await r.autofixClaimRun(
        deliveryKey(deliveryId),
        lockKey(run),
        runId,
        LOCK_TTL_MS,
        DELIVERY_TTL_MS,
      );
      if (kind === 'duplicate') return { kind, previous: value };
      if (kind === 'busy') return { kind, activeRunId: value };
      return { kind: 'claimed', runId: value };
    },
    async markDelivered(ids, runId) {
      await Promise.all(
        [...new Set(ids)].map((id) => redis.set(deliveryKey(id), runId, 'PX', DELIVERY_TTL_MS)),
      );
    },
    async release(run, runId) {
      await r.autofixReleaseRun(lockKey(run), runId);
    },
    async forget(ids, run, runId) {
      for (const id of new Set(ids)) await r.autofixReleaseRun(deliveryKey(id), runId);
      await r.autofixReleaseRun(lockKey(run), runId);
    },
    async refresh(run, runId, ttlMs = LOCK_TTL_MS) {
      await r.autofixRefreshRun(lockKey(run), runId, ttlMs);
    },
    async lock(name, ttlMs) {
      const key = `${prefix}:lock:${name}`;
      const token = randomUUID();
      const set = await redis.set(key, token, 'PX', ttlMs, 'NX');
      if (set !== 'OK') return undefined;
      // Deletes the key only while it still holds this token (not a later holder's lock).
      return async () => {
        await r.autofixReleaseRun(key, token);
      };
    },
    ...goneMarks(redis, prefix),
    async firstBusyReply(activeRunId) {
      const set = await redis.set(
        `${prefix}:busy-replied:${activeRunId}`,
        '1',
        'PX',
        LOCK_TTL_MS,
        'NX',
      );
      return set === 'OK';
    },
  };
}

/** The registry's record of installations and repositories the app lost. */
function goneMarks(redis: Redis, prefix: string): Pick<RunRegistry, 'markGone' | 'goneSince'> {
  const goneKey = (installationId: number, repo?: string): string =>
    `${prefix}:gone:${installationId}${repo === undefined ? '' : `:${repo.toLowerCase()}`}`;
  return {
    async markGone(scope, at) {
      const keys = scope.repositories
        ? scope.repositories.map((repo) => goneKey(scope.installationId, repo))
        : [goneKey(scope.installationId)];
      await Promise.all(keys.map((key) => redis.set(key, String(at), 'PX', DELIVERY_TTL_MS)));
    },
    async goneSince(installationId, repoFullName) {
      const marks = await redis.mget(
        goneKey(installationId),
        goneKey(installationId, repoFullName),
      );
      const times = marks.filter((m): m is string => m !== null).map(Number);
      return times.length > 0 ? Math.max(...times) : undefined;
    },
  };
}

export function runKeyOf(data: {
  repository: { fullName: string };
  issue: { number: number };
}): RunKey {
  return { repoFullName: data.repository.fullName, issueNumber: data.issue.number };
}
