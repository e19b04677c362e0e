/**
 * An installation deleted or suspended, or a repository removed from it (issue #37): its queued
 * and parked runs end at once, quietly (GitHub would refuse every word), in one log line; a stage
 * job or trigger that was already running when it happened ends at its next step; a trigger after
 * the reinstall runs.
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { createRedisRunStore } from '../../../src/runs/redis-run-store.js';
import type { StageJobData } from '../../../src/runs/run-record.js';
import {
  installationPayload,
  labeledPayload,
  repositoriesRemovedPayload,
} from '../../helpers/webhooks.js';
import { captureLog, type CapturedLog } from './captured-log.js';
import { REDIS_URL, SECRET, startHarness, waitFor, type Harness } from './harness.js';

const REPO = 'Codertocat/Hello-World';
const writes = (h: Harness, from: number): string[] =>
  h.github.requests
    .slice(from)
    .filter((r) => r.method !== 'GET')
    .map((r) => `${r.method} ${r.path}`);
const lines = (log: CapturedLog, text: string): string[] =>
  log
    .text()
    .split('\n')
    .filter((line) => line.includes(text));

describe('an installation the app loses', () => {
  let h: Harness | undefined;
  let redis: Redis | undefined;
  let queue: Queue<StageJobData> | undefined;
  let triggers: Queue | undefined;
  afterEach(async () => {
    await queue?.close();
    await triggers?.close();
    triggers = undefined;
    redis?.disconnect();
    await h?.close();
    h = undefined;
    queue = undefined;
    redis = undefined;
  });

  const start = async (log: CapturedLog, workers: boolean): Promise<Harness> => {
    h = await startHarness({ workers, log: log.log });
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    return h;
  };
  const lockOf = (prefix: string, repo: string, issue: number): Promise<string | null> =>
    redis!.get(`${prefix}:run-lock:${repo}#${issue}`);

  it('ends its queued and parked runs at once, posts nothing, logs one line, and runs again after unsuspend', async () => {
    const log = captureLog([SECRET]);
    const h = await start(log, false);
    await h.send('issues', labeledPayload({ issueNumber: 1 }));
    await h.send('issues', labeledPayload({ issueNumber: 2 }));
    // Another installation's run is not touched.
    await h.send('issues', labeledPayload({ issueNumber: 3, owner: 'Other', installationId: 77 }));
    await h.admitted();
    const queued = await h.runsAt('triage');
    expect(queued).toHaveLength(3);
    const runs = createRedisRunStore(redis!, h.prefix);
    // A waiting stage job (a retry waiting out its backoff) of the same installation.
    queue = new Queue<StageJobData>('plan', { connection: { url: REDIS_URL }, prefix: h.prefix });
    const first = queued.find((r) => r.issue.number === 1)!;
    const waiting = { ...first, runId: `${first.runId}x`, issue: { ...first.issue, number: 4 } };
    await runs.create(waiting);
    await queue.add(
      'plan',
      { runId: waiting.runId },
      { jobId: `${waiting.runId}-plan`, delay: 3_600_000 },
    );
    // A parked run (it waits for a maintainer): no job at all.
    const parked = { ...first, runId: `${first.runId}p`, issue: { ...first.issue, number: 6 } };
    await runs.create(parked);
    await runs.update(parked.runId, (r) => ({
      ...r,
      parked: {
        reason: 'plan-approval',
        resumeAt: 'reproduce',
        message: 'approve?',
        at: 1,
        expiresAt: Date.now() + 3_600_000,
      },
    }));
    // A trigger parked in admission (a retry waiting out its backoff: here an hour, so that it
    // is still parked when the installation goes, however slow the machine).
    triggers = new Queue('trigger', { connection: { url: REDIS_URL }, prefix: h.prefix });
    const admitted = (await h.triggers()).find((j) => j.data.issue.number === 2)!.data;
    const parkedData = {
      ...admitted,
      deliveryId: 'parked-trigger',
      issue: { ...admitted.issue, number: 5 },
      triggerKey: `${admitted.triggerKey}-parked`,
    };
    await triggers.add('trigger', parkedData, { jobId: 'trigger-parked', delay: 3_600_000 });

    const before = h.github.requests.length;
    const res = await h.send('installation', installationPayload('suspend'));
    expect(res.status).toBe(200);

    const left = await h.runsAt('triage');
    expect(left.map((r) => r.installationId)).toEqual([77]);
    expect(await queue.getJobs()).toHaveLength(0);
    expect((await h.triggers()).filter((j) => j.data.issue.number === 5)).toHaveLength(0);
    for (const run of queued.filter((r) => r.installationId === 4242)) {
      expect((await runs.get(run.runId))?.ending).toMatchObject({ outcome: 'abandoned' });
      expect(await lockOf(h.prefix, REPO, run.issue.number)).toBeNull();
    }
    expect((await runs.get(parked.runId))?.ending).toMatchObject({ outcome: 'abandoned' });
    expect(await runs.parked()).toEqual([]);
    expect(await lockOf(h.prefix, 'Other/Hello-World', 3)).not.toBeNull();
    expect(h.github.requests.slice(before)).toEqual([]);
    const said = lines(log, 'app lost the installation');
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('4 queued run(s) ended, 1 trigger(s) dropped');

    // Unsuspended: a new trigger for the same issue runs (the issue is free, nothing remembered).
    expect((await h.send('installation', installationPayload('unsuspend'))).status).toBe(200);
    await h.send('issues', labeledPayload({ issueNumber: 1 }));
    await h.admitted();
    const again = await h.runsAt('triage');
    expect(again.filter((r) => r.issue.number === 1)).toHaveLength(1);
    expect(writes(h, before).filter((w) => /\/comments$/.test(w))).toEqual([]);
  });

  it('ends a run whose stage was running when the installation was deleted at its next stage', async () => {
    const log = captureLog([SECRET]);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    h = await startHarness({
      log: log.log,
      overrides: {
        triage: async () => {
          await released;
          return {
            kind: 'continue',
            output: { risk: 'LOW', classification: 'fix', affected_files: [], summary: 'x' },
          };
        },
      },
    });
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    await h.send('issues', labeledPayload({ issueNumber: 1 }));
    const call = await waitFor(() => h!.stages.calls.find((c) => c.stage === 'triage'));
    expect((await h.send('installation', installationPayload('deleted'))).status).toBe(200);
    release();
    const runs = createRedisRunStore(redis, h.prefix);
    await waitFor(async () => (await runs.get(call.runId))?.ending?.outcome === 'abandoned');
    expect(h.stages.calls.map((c) => c.stage)).toEqual(['triage']);
    await waitFor(async () => (await lockOf(h!.prefix, REPO, 1)) === null);
    // The guard's line comes as the run ends: waited for, then counted.
    await waitFor(() => lines(log, 'run ended, nothing posted').length > 0 || undefined);
    expect(lines(log, 'run ended, nothing posted')).toHaveLength(1);
  });

  it('drops a trigger that was in admission when its repository was removed', async () => {
    const log = captureLog([SECRET]);
    await start(log, false);
    h!.github.interceptNext(
      'GET',
      /\/collaborators\/maintainer\/permission$/,
      'before',
      async () => {
        await h!.send('installation_repositories', repositoriesRemovedPayload([REPO]));
      },
    );
    await h!.send('issues', labeledPayload({ issueNumber: 1 }));
    await h!.admitted();
    expect(await h!.jobs('triage')).toHaveLength(0);
    const [trigger] = await h!.triggers();
    expect(trigger!.returnvalue).toBe('installation-gone');
    expect(writes(h!, 0)).toEqual(
      expect.not.arrayContaining([expect.stringMatching(/^(POST|PATCH|PUT|DELETE) \/repos\//)]),
    );
  });
});
