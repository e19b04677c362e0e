/**
 * The background status publisher (src/runs/status-publisher.ts) against real Redis: what the
 * comment finally shows is the newest version whatever order the edits land in, one worker
 * creates it, and a run over before `createAfterMs` gets it once, with its final state.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { silentLogger } from '../../../src/logger.js';
import { deleteKeys } from '../../../src/scheduler/delete-keys.js';
import {
  createStatusPublisher,
  statusRevision,
  type StatusTarget,
  type StatusVersion,
} from '../../../src/runs/status-publisher.js';
import { WAIT_MS } from '../../helpers/deadlines.js';
import { REDIS_URL, waitFor } from './harness.js';

/**
 * One comment on a fake GitHub: every create and edit, with an edit's delay before it lands (a
 * scripted slow GitHub: the delay is what the tests are about).
 */
function fakeComment(): {
  target: (delayMs?: number) => StatusTarget;
  body: () => string | undefined;
  creates: () => number;
  /** Edits begun, landed or not. */
  begun: () => number;
  edits: string[];
} {
  let body: string | undefined;
  let creates = 0;
  let begun = 0;
  const edits: string[] = [];
  return {
    target: (delayMs = 0) => ({
      find: () => Promise.resolve(undefined),
      create: (text) => {
        creates += 1;
        body = text;
        return Promise.resolve(1);
      },
      update: async (_id, text) => {
        begun += 1;
        await new Promise((r) => setTimeout(r, delayMs));
        body = text;
        edits.push(text);
      },
    }),
    body: () => body,
    creates: () => creates,
    begun: () => begun,
    edits,
  };
}

let redis: Redis;
let prefix: string;
beforeEach(() => {
  redis = new Redis(REDIS_URL);
  prefix = `autofix-test-status-${randomUUID()}`;
});
afterEach(async () => {
  redis.disconnect();
  await deleteKeys(REDIS_URL, prefix);
});

const version = (
  runId: string,
  stage: number,
  body: string,
  target: StatusTarget,
  extra: Partial<StatusVersion> = {},
): StatusVersion => ({
  runId,
  rev: statusRevision(stage, 1, 1),
  body,
  startedAt: 0,
  target,
  ...extra,
});

describe('status publisher', () => {
  it("never leaves an older version showing: a slow worker's late edit is followed by the newest", async () => {
    const comment = fakeComment();
    const a = createStatusPublisher({ redis, prefix, log: silentLogger, debounceMs: 0 });
    const b = createStatusPublisher({ redis, prefix, log: silentLogger, debounceMs: 0 });
    // Worker A (the plan stage) edits slowly; worker B (the code stage, later) quickly.
    a.submit(version('r1', 1, 'plan done', comment.target(300), { commentId: 1 }));
    await waitFor(() => comment.begun() > 0 || undefined, WAIT_MS, "A's edit under way");
    b.submit(version('r1', 2, 'code running', comment.target(0), { commentId: 1 }));
    await Promise.all([a.flush('r1'), b.flush('r1')]);
    expect(comment.edits).toContain('plan done'); // it did land, late…
    expect(comment.body()).toBe('code running'); // …and was covered again
  });

  it('an older version submitted after a newer one is never written', async () => {
    const comment = fakeComment();
    const p = createStatusPublisher({ redis, prefix, log: silentLogger, debounceMs: 0 });
    p.submit(version('r2', 3, 'pr running', comment.target(), { commentId: 1 }));
    await p.flush('r2');
    p.submit(version('r2', 1, 'plan done (late)', comment.target(), { commentId: 1 }));
    await p.flush('r2');
    expect(comment.edits).not.toContain('plan done (late)');
    expect(comment.body()).toBe('pr running');
  });

  it('creates the comment once across workers, and only once the run has lasted createAfterMs', async () => {
    const comment = fakeComment();
    // The clock the publishers read: 100 ms into the run, then past createAfterMs.
    const now = Date.now();
    let clock = now + 100;
    let looked = 0; // how often a publisher read the clock: it does to decide "too early"
    const options = {
      redis,
      prefix,
      log: silentLogger,
      debounceMs: 0,
      createAfterMs: 500,
      now: () => {
        looked += 1;
        return clock;
      },
    };
    const a = createStatusPublisher(options);
    const b = createStatusPublisher(options);
    a.submit(version('r3', 0, 'triage running', comment.target(), { startedAt: now }));
    // A has read the clock and asked Redis for a comment id; its answer comes before this PING's
    // (one connection), so A has decided by then.
    await waitFor(() => looked > 0 || undefined, WAIT_MS, 'A to look at the clock');
    await redis.ping();
    expect(comment.creates()).toBe(0); // too early: a quick run would not need it
    clock = now + 600;
    b.submit(version('r3', 1, 'plan running', comment.target(), { startedAt: now }));
    // Created in the background, not by the flush.
    await waitFor(() => comment.creates() > 0 || undefined, WAIT_MS, 'the comment');
    await Promise.all([a.flush('r3'), b.flush('r3')]);
    expect(comment.creates()).toBe(1);
    expect(comment.body()).toBe('plan running');
  });

  it('too early to create the comment: decides once and waits, without asking Redis again and again', async () => {
    const comment = fakeComment();
    const now = Date.now();
    let looked = 0;
    const p = createStatusPublisher({
      redis,
      prefix,
      log: silentLogger,
      debounceMs: 0,
      createAfterMs: 60_000,
      now: () => {
        looked += 1;
        return now + 100;
      },
    });
    p.submit(version('r5', 0, 'triage running', comment.target(), { startedAt: now }));
    await waitFor(() => looked > 0 || undefined, WAIT_MS, 'the publisher to look at the clock');
    // Twenty round trips on the publisher's connection: a publisher that retried at once (it
    // did: the retry went back into its own loop) decided again on nearly each of them.
    for (let i = 0; i < 20; i++) await redis.ping();
    expect(looked).toBe(1);
    expect(comment.creates()).toBe(0);
    await p.flush('r5');
    expect(comment.creates()).toBe(1);
    expect(comment.body()).toBe('triage running');
  });

  it('a run that ends before createAfterMs gets its comment at the end, with the final state', async () => {
    const comment = fakeComment();
    const p = createStatusPublisher({ redis, prefix, log: silentLogger, createAfterMs: 60_000 });
    p.submit(version('r4', 0, 'triage running', comment.target(), { startedAt: Date.now() }));
    p.submit(version('r4', 99, 'finished', comment.target(), { startedAt: Date.now() }));
    await p.flush('r4');
    expect(comment.creates()).toBe(1);
    expect(comment.edits).toEqual([]);
    expect(comment.body()).toBe('finished');
  });
});
