import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import {
  createPrOutcomeStore,
  mergeRate,
  PR_OUTCOME_TTL_MS,
  type PrOutcomeStore,
} from '../../../src/runs/pr-outcomes.js';
import { deleteKeys } from '../../../src/scheduler/delete-keys.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const DAY = 24 * 3600_000;
const NOW = Date.UTC(2026, 10, 28);
const SHA = 'a'.repeat(40);

describe('PR outcome store (real Redis, unique prefix)', () => {
  let redis: Redis;
  let prefix: string;
  let store: PrOutcomeStore;
  beforeEach(() => {
    redis = new Redis(REDIS_URL);
    prefix = `autofix-unit-${randomUUID().slice(0, 8)}`;
    store = createPrOutcomeStore(redis, prefix, { now: () => NOW });
  });
  afterEach(async () => {
    redis.disconnect();
    await deleteKeys(REDIS_URL, prefix);
  });

  const merged = { runId: 'run-1', repo: 'Octo/App', pr: 5, outcome: 'merged' as const, at: NOW };

  it('records a decision once, under the run id, and keeps it 90 days', async () => {
    expect(await store.decide({ ...merged, mergeSha: SHA })).toBe(true);
    expect(await store.decide({ ...merged, mergeSha: SHA })).toBe(false);
    expect(await store.ofRun('run-1')).toEqual({
      runId: 'run-1',
      repo: 'octo/app',
      pr: 5,
      outcome: 'merged',
      at: NOW,
      mergeSha: SHA,
    });
    const ttl = await redis.pttl(`${prefix}:pr-outcome:run-1`);
    expect(ttl).toBeGreaterThan(PR_OUTCOME_TTL_MS - DAY);
    expect(ttl).toBeLessThanOrEqual(PR_OUTCOME_TTL_MS);
  });

  it('moves only forward: closed → merged → reverted, never back', async () => {
    expect(await store.decide({ ...merged, outcome: 'closed' })).toBe(true);
    expect(await store.decide({ ...merged, mergeSha: SHA })).toBe(true);
    expect(await store.decide({ ...merged, outcome: 'closed' })).toBe(false);
    // A second event of the PR under another run id lands on the PR's first run.
    expect(await store.decide({ ...merged, runId: 'run-2', outcome: 'closed' })).toBe(false);
    expect(await store.ofRun('run-2')).toBeUndefined();
    const reverted = await store.revertCommit('octo/APP', SHA.toUpperCase(), NOW + 1);
    expect(reverted).toMatchObject({ runId: 'run-1', outcome: 'reverted', revertedAt: NOW + 1 });
    expect(await store.revertPull('octo/app', 5, NOW + 2)).toBeUndefined();
    expect(await store.decide({ ...merged, mergeSha: SHA })).toBe(false);
    expect((await store.ofRun('run-1'))?.outcome).toBe('reverted');
  });

  it('reverts only a merged PR it knows', async () => {
    expect(await store.revertPull('octo/app', 5, NOW)).toBeUndefined();
    await store.decide({ ...merged, outcome: 'closed' });
    expect(await store.revertPull('octo/app', 5, NOW)).toBeUndefined();
    expect(await store.revertCommit('octo/app', 'b'.repeat(40), NOW)).toBeUndefined();
    expect((await store.ofRun('run-1'))?.outcome).toBe('closed');
  });

  it('counts per repository the PRs decided in the window, by their outcome now', async () => {
    await store.decide({ ...merged, mergeSha: SHA });
    await store.decide({ ...merged, runId: 'run-2', pr: 6 });
    await store.decide({ ...merged, runId: 'run-3', pr: 7, outcome: 'closed' });
    await store.decide({ ...merged, runId: 'run-4', pr: 8, at: NOW - 40 * DAY });
    await store.decide({ ...merged, runId: 'run-5', repo: 'octo/other', pr: 1, outcome: 'closed' });
    await store.decide({ ...merged, runId: 'run-6', repo: 'octo/old', pr: 1, at: NOW - 31 * DAY });
    await store.revertPull('octo/app', 5, NOW);
    const rows = await store.byRepository(NOW - 30 * DAY);
    expect(rows.sort((a, b) => a.repo.localeCompare(b.repo))).toEqual([
      { repo: 'octo/app', merged: 1, closed: 1, reverted: 1 },
      { repo: 'octo/other', merged: 0, closed: 1, reverted: 0 },
    ]);
    expect(mergeRate(rows[0]!)).toBeCloseTo(1 / 3);
    expect(mergeRate({ merged: 0, closed: 0, reverted: 0 })).toBeUndefined();
  });

  it('drops from the sorted sets what is older than the keys live', async () => {
    await store.decide({ ...merged, at: NOW - 100 * DAY });
    await store.decide({ ...merged, runId: 'run-2', pr: 6 });
    expect(await redis.zrange(`${prefix}:pr-outcomes:octo/app`, 0, -1)).toEqual(['run-2']);
  });
});
