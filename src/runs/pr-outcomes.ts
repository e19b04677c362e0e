/**
 * What became of the pull requests the app opened (issue #36): merged, closed unmerged, or merged
 * and then reverted. One record per run, keyed by the run id so the run's own record can read it,
 * next to BullMQ's keys (same prefix), every key kept 90 days (refreshed by each write):
 *
 * - `<prefix>:pr-outcome:<run id>` → hash `runId`, `repo`, `pr`, `outcome`, `at` (when the PR was
 *   merged or closed, epoch ms), `mergeSha` (a merge), `revertedAt` (a revert);
 * - `<prefix>:pr-outcome-pull:<owner/repo>#<pr>` → the run id recorded for that PR: a second
 *   decision of the same PR lands on the same record, and a revert PR names the PR;
 * - `<prefix>:pr-outcome-commit:<owner/repo>@<sha>` → the run id whose PR merged as that commit:
 *   a revert commit names it (`This reverts commit <sha>`);
 * - `<prefix>:pr-outcomes:<owner/repo>` → the repository's run ids scored by `at`, and
 *   `<prefix>:pr-outcome-repos` → the repositories scored by their latest `at`: the status page's
 *   window reads them without a scan.
 *
 * An outcome only moves forward — none → closed or merged, closed → merged (a PR reopened and
 * merged), merged → reverted — in one Lua script, so a redelivery or a second event never counts
 * twice. Repository names are kept lower-cased (GitHub's are case-insensitive).
 */
import type { Redis } from 'ioredis';

export type PrOutcome = 'merged' | 'closed' | 'reverted';

export const PR_OUTCOMES: readonly PrOutcome[] = ['merged', 'closed', 'reverted'];

export const PR_OUTCOME_TTL_MS = 90 * 24 * 3600_000;

export interface PrOutcomeRecord {
  runId: string;
  /** `owner/repo`, lower-cased. */
  repo: string;
  pr: number;
  outcome: PrOutcome;
  /** When the PR was merged or closed (epoch ms). */
  at: number;
  /** The commit the merge put on the base branch (merge, squash or last rebased commit). */
  mergeSha?: string;
  revertedAt?: number;
}

/** A PR this app opened was merged or closed unmerged. */
export interface PullDecision {
  runId: string;
  repo: string;
  pr: number;
  outcome: 'merged' | 'closed';
  at: number;
  mergeSha?: string;
}

/** One repository's decided PRs in a window. */
export interface RepoOutcomes {
  repo: string;
  merged: number;
  closed: number;
  reverted: number;
}

/** The store's port: Redis here, a map in a test's fake. */
export interface PrOutcomeStore {
  /** Records the decision; false when it adds nothing (a redelivery, a second event). */
  decide(decision: PullDecision): Promise<boolean>;
  /** Marks the merged PR `pr` reverted; its record the first time, else undefined. */
  revertPull(repo: string, pr: number, at: number): Promise<PrOutcomeRecord | undefined>;
  /** Marks reverted the merged PR whose merge was commit `sha`; as `revertPull`. */
  revertCommit(repo: string, sha: string, at: number): Promise<PrOutcomeRecord | undefined>;
  ofRun(runId: string): Promise<PrOutcomeRecord | undefined>;
  /** Per repository, the PRs decided since `since` (epoch ms), by their outcome now. */
  byRepository(since: number): Promise<RepoOutcomes[]>;
}

/** Merged ÷ decided (a reverted PR is decided, not merged); undefined when none was decided. */
export function mergeRate(o: Pick<RepoOutcomes, 'merged' | 'closed' | 'reverted'>) {
  const decided = o.merged + o.closed + o.reverted;
  return decided === 0 ? undefined : o.merged / decided;
}

/**
 * The moves an outcome may make (`from>to`, an empty `from`: none yet): forward only, a revert of a
 * merge. The Lua script below and any fake of the store read this one list.
 */
export const OUTCOME_MOVES: readonly string[] = [
  '>closed',
  '>merged',
  'closed>merged',
  'merged>reverted',
];

export const canMove = (from: PrOutcome | undefined, to: PrOutcome): boolean =>
  OUTCOME_MOVES.includes(`${from ?? ''}>${to}`);

/*
 * KEYS: the run's hash, the PR's key, the merge commit's key, the repository's and the
 * repositories' sorted sets. ARGV: run id, repo, PR, outcome, at, merge sha ('' = none), ttl,
 * the oldest `at` kept.
 */
const DECIDE = `
local prev = redis.call('HGET', KEYS[1], 'outcome') or ''
local moves = { ${OUTCOME_MOVES.map((m) => `['${m}'] = 1`).join(', ')} }
if not moves[prev .. '>' .. ARGV[4]] then return 0 end
local ttl = ARGV[7]
if ARGV[4] == 'reverted' then
  redis.call('HSET', KEYS[1], 'outcome', 'reverted', 'revertedAt', ARGV[5])
else
  redis.call('HSET', KEYS[1], 'runId', ARGV[1], 'repo', ARGV[2], 'pr', ARGV[3],
    'outcome', ARGV[4], 'at', ARGV[5])
  if ARGV[6] ~= '' then
    redis.call('HSET', KEYS[1], 'mergeSha', ARGV[6])
    redis.call('SET', KEYS[3], ARGV[1], 'PX', ttl)
  end
  redis.call('SET', KEYS[2], ARGV[1], 'PX', ttl)
  redis.call('ZADD', KEYS[4], ARGV[5], ARGV[1])
  redis.call('ZADD', KEYS[5], 'GT', ARGV[5], ARGV[2])
end
redis.call('PEXPIRE', KEYS[1], ttl)
for i = 4, 5 do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', '(' .. ARGV[8])
  redis.call('PEXPIRE', KEYS[i], ttl)
end
return 1
`;

type Scripted = Redis & {
  autofixPrOutcome(...args: (string | number)[]): Promise<number>;
};

function recordOf(hash: Record<string, string>): PrOutcomeRecord | undefined {
  if (!hash.runId || !hash.outcome) return undefined;
  return {
    runId: hash.runId,
    repo: hash.repo ?? '',
    pr: Number(hash.pr),
    outcome: hash.outcome as PrOutcome,
    at: Number(hash.at),
    ...(hash.mergeSha ? { mergeSha: hash.mergeSha } : {}),
    ...(hash.revertedAt ? { revertedAt: Number(hash.revertedAt) } : {}),
  };
}

export function createPrOutcomeStore(
  redis: Redis,
  prefix: string,
  options: { ttlMs?: number; now?: () => number } = {},
): PrOutcomeStore {
  const r = redis as Scripted;
  if (typeof r.autofixPrOutcome !== 'function') {
    redis.defineCommand('autofixPrOutcome', { numberOfKeys: 5, lua: DECIDE });
  }
  const ttl = options.ttlMs ?? PR_OUTCOME_TTL_MS;
  const now = options.now ?? Date.now;
  const lower = (repo: string): string => repo.toLowerCase();
  const k = {
    run: (runId: string) => `${prefix}:pr-outcome:${runId}`,
    pull: (repo: string, pr: number) => `${prefix}:pr-outcome-pull:${lower(repo)}#${pr}`,
    commit: (repo: string, sha: string) =>
      `${prefix}:pr-outcome-commit:${lower(repo)}@${sha.toLowerCase()}`,
    repo: (repo: string) => `${prefix}:pr-outcomes:${lower(repo)}`,
    repos: `${prefix}:pr-outcome-repos`,
  };
  const apply = async (
    d: Omit<PullDecision, 'outcome'> & { outcome: PrOutcome },
  ): Promise<boolean> => {
    const applied = await r.autofixPrOutcome(
      k.run(d.runId),
      k.pull(d.repo, d.pr),
      k.commit(d.repo, d.mergeSha ?? ''),
      k.repo(d.repo),
      k.repos,
      d.runId,
      lower(d.repo),
      d.pr,
      d.outcome,
      d.at,
      d.mergeSha?.toLowerCase() ?? '',
      ttl,
      now() - ttl,
    );
    return applied === 1;
  };
  const ofRun = async (runId: string) => recordOf(await redis.hgetall(k.run(runId)));
  /** Reverts the run `runKey` names, once: its record after the revert. */
  const revert = async (runKey: string, at: number) => {
    const runId = await redis.get(runKey);
    const known = runId ? await ofRun(runId) : undefined;
    if (!known) return undefined;
    return (await apply({ ...known, outcome: 'reverted', at }))
      ? { ...known, outcome: 'reverted' as const, revertedAt: at }
      : undefined;
  };
  return {
    async decide(d) {
      // A PR keeps the run it was first recorded under (a second event names the same PR).
      const runId = (await redis.get(k.pull(d.repo, d.pr))) ?? d.runId;
      return apply({ ...d, runId });
    },
    revertPull: (repo, pr, at) => revert(k.pull(repo, pr), at),
    revertCommit: (repo, sha, at) => revert(k.commit(repo, sha), at),
    ofRun,
    byRepository: (since) => countByRepository(redis, k, since),
  };
}

async function countByRepository(
  redis: Redis,
  k: { repo: (repo: string) => string; run: (runId: string) => string; repos: string },
  since: number,
): Promise<RepoOutcomes[]> {
  const repos = await redis.zrangebyscore(k.repos, since, '+inf');
  return Promise.all(
    repos.map(async (repo) => {
      const runIds = await redis.zrangebyscore(k.repo(repo), since, '+inf');
      const outcomes = await Promise.all(runIds.map((id) => redis.hget(k.run(id), 'outcome')));
      const count = (o: PrOutcome): number => outcomes.filter((x) => x === o).length;
      return {
        repo,
        merged: count('merged'),
        closed: count('closed'),
        reverted: count('reverted'),
      };
    }),
  );
}
