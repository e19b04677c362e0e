import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createMemorySpendLedger } from '../../../src/runs/memory-spend-ledger.js';
import { createRedisSpendLedger } from '../../../src/runs/redis-spend-ledger.js';
import { SPEND_KEEP_AFTER_MS, type SpendLedger } from '../../../src/runs/spend-ledger.js';
import { spendPeriodsAt } from '../../../src/runs/spend-periods.js';

const alice = { installationId: 7, requester: 'Alice' };
const bob = { installationId: 7, requester: 'bob' };
const other = { installationId: 8, requester: 'alice' };
const NOV_28_NOON = Date.UTC(2026, 10, 28, 12);
const NOV_30_LATE = Date.UTC(2026, 10, 30, 23, 59, 59);
const DEC_1_EARLY = Date.UTC(2026, 11, 1, 0, 0, 1);

describe('spend periods', () => {
  it('are the UTC day and month, ending at the next UTC midnight and month', () => {
    expect(spendPeriodsAt(NOV_30_LATE)).toEqual({
      day: '2026-11-30',
      month: '2026-11',
      dayEndsAt: Date.UTC(2026, 11, 1),
      monthEndsAt: Date.UTC(2026, 11, 1),
    });
    expect(spendPeriodsAt(Date.UTC(2026, 11, 31, 23))).toMatchObject({
      month: '2026-12',
      monthEndsAt: Date.UTC(2027, 0, 1),
    });
  });
});

let redis: Redis;
let prefix: string;
/** One process's ledger, shared by the "workers" of a test as Redis is. */
let memory: SpendLedger;
/** Each Redis ledger of a test has its own connection, as separate workers do. */
let connections: Redis[] = [];
beforeAll(() => {
  redis = new Redis('redis://127.0.0.1:6379');
});
beforeEach(() => {
  prefix = `autofix-spend-${randomUUID().slice(0, 8)}`;
  memory = createMemorySpendLedger();
});
afterEach(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  for (const connection of connections) connection.disconnect();
  connections = [];
});

function workerLedger(): SpendLedger {
  const connection = new Redis('redis://127.0.0.1:6379');
  connections.push(connection);
  return createRedisSpendLedger(connection, prefix);
}
afterAll(() => redis.disconnect());

describe.each([
  ['Redis (real, unique prefix)', workerLedger],
  ['memory', () => memory],
])('the spend ledger in %s', (_name, make: () => SpendLedger) => {
  it("adds a call's cost to the installation's day and month and to the requester's day", async () => {
    const ledger = make();
    await ledger.add(alice, 0.25, NOV_28_NOON);
    expect(await ledger.add(bob, 0.5, NOV_28_NOON)).toEqual({
      installationDayUsd: 0.75,
      installationMonthUsd: 0.75,
      requesterDayUsd: 0.5,
    });
    // Another installation: its own figures; the same person (logins are case-blind): one day.
    expect(await ledger.read(other, NOV_28_NOON)).toEqual({
      installationDayUsd: 0,
      installationMonthUsd: 0,
      requesterDayUsd: 0.25,
    });
    await ledger.add(other, 1, NOV_28_NOON);
    expect(await ledger.read(alice, NOV_28_NOON)).toEqual({
      installationDayUsd: 0.75,
      installationMonthUsd: 0.75,
      requesterDayUsd: 1.25,
    });
  });

  it('starts a new day and a new month at zero (UTC)', async () => {
    const ledger = make();
    await ledger.add(alice, 1, NOV_28_NOON);
    await ledger.add(alice, 2, NOV_30_LATE);
    expect(await ledger.read(alice, NOV_30_LATE)).toEqual({
      installationDayUsd: 2,
      installationMonthUsd: 3,
      requesterDayUsd: 2,
    });
    expect(await ledger.read(alice, DEC_1_EARLY)).toEqual({
      installationDayUsd: 0,
      installationMonthUsd: 0,
      requesterDayUsd: 0,
    });
  });

  it('loses no addition and no fraction under many concurrent adds', async () => {
    const ledgers = [make(), make(), make(), make()];
    await Promise.all(
      Array.from({ length: 400 }, (_, i) => ledgers[i % 4]!.add(alice, 0.000_1, NOV_28_NOON)),
    );
    // 400 × 0.0001 in floats is 0.04000000000000002; in micro-dollars, exactly 0.04.
    expect(await make().read(alice, NOV_28_NOON)).toEqual({
      installationDayUsd: 0.04,
      installationMonthUsd: 0.04,
      requesterDayUsd: 0.04,
    });
  });
});

describe('the Redis spend ledger', () => {
  it('keeps each figure until its period ends, plus a margin', async () => {
    const ledger = createRedisSpendLedger(redis, prefix);
    const now = Date.now();
    await ledger.add(alice, 0.1, now);
    const { day, month, dayEndsAt, monthEndsAt } = spendPeriodsAt(now);
    const expiry = (key: string) => redis.pexpiretime(key);
    expect(await expiry(`${prefix}:spend:installation:7:day:${day}`)).toBe(
      dayEndsAt + SPEND_KEEP_AFTER_MS,
    );
    expect(await expiry(`${prefix}:spend:installation:7:month:${month}`)).toBe(
      monthEndsAt + SPEND_KEEP_AFTER_MS,
    );
    expect(await expiry(`${prefix}:spend:requester:alice:day:${day}`)).toBe(
      dayEndsAt + SPEND_KEEP_AFTER_MS,
    );
    expect(await redis.get(`${prefix}:spend:installation:7:day:${day}`)).toBe('100000');
  });
});
