/**
 * Deliveries first (intake/deliveries-first.ts): the admission worker takes a trigger only once
 * intake lets it, and a batch of triggers accepted in one turn of the event loop is persisted
 * whole and deduplicated by trigger key (intake/trigger-intake.ts). Real Redis, real BullMQ.
 */
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import {
  startAdmissionWorker,
  type AdmissionWorker,
} from '../../../src/intake/admission-worker.js';
import { createDeliveryActivity } from '../../../src/intake/deliveries-first.js';
import { labelTrigger } from '../../../src/intake/build-trigger.js';
import { createTriggerIntake, triggerJobId } from '../../../src/intake/trigger-intake.js';
import { TRIGGER_QUEUE, type TriggerJobData } from '../../../src/intake/trigger-types.js';
import type { GitHubClient } from '../../../src/github/types.js';
import { createLogger } from '../../../src/logger.js';
import { deleteKeys } from '../../../src/scheduler/delete-keys.js';
import { QueueUnavailableError } from '../../../src/scheduler/with-deadline.js';
import { waitFor } from '../../helpers/wait-for.js';
import { REDIS_URL } from './harness.js';

/** A label trigger; the same `updatedAt` on the same issue is the same trigger. */
const trigger = (issueNumber: number, updatedAt: string = randomUUID()): TriggerJobData =>
  labelTrigger(randomUUID(), {
    repository: {
      id: 77,
      name: 'app',
      full_name: 'octo/app',
      clone_url: 'https://github.com/octo/app.git',
      default_branch: 'main',
      owner: { login: 'octo' },
    },
    issue: { number: issueNumber, title: 'Bug', body: null, updated_at: updatedAt },
    sender: { login: 'maintainer' },
    installation: { id: 9 },
    label: { name: 'autofix' },
  });

describe('intake before admission', () => {
  let prefix: string;
  let queue: Queue<TriggerJobData>;
  let worker: AdmissionWorker | undefined;
  beforeEach(() => {
    prefix = `autofix-test-yield-${randomUUID().slice(0, 8)}`;
    queue = new Queue<TriggerJobData>(TRIGGER_QUEUE, { connection: { url: REDIS_URL }, prefix });
  });
  afterEach(async () => {
    await worker?.close(1000);
    worker = undefined;
    await queue.close();
    await deleteKeys(REDIS_URL, prefix);
  });

  it('admits a trigger only once no delivery is being answered', async () => {
    const activity = createDeliveryActivity({ maxWaitMs: 60_000 });
    const asked: number[] = [];
    const admitted: number[] = [];
    worker = startAdmissionWorker({
      redisUrl: REDIS_URL,
      prefix,
      auth: () =>
        Promise.resolve({
          octokit: {} as GitHubClient,
          getInstallationToken: () => Promise.resolve(''),
        }),
      admit: (t) => {
        admitted.push(t.issue.number);
        return Promise.resolve('admitted');
      },
      log: createLogger({ level: 'silent' }),
      yieldTo: () => {
        asked.push(Date.now());
        return activity.quiet();
      },
    });
    activity.begin(); // a delivery is being answered
    await queue.add(TRIGGER_QUEUE, trigger(1));
    await waitFor(() => asked.length === 1, undefined, 'admission to ask');
    expect(admitted).toEqual([]);
    activity.end();
    await waitFor(() => admitted.length === 1, undefined, 'the admission');
    expect(admitted).toEqual([1]);
  });

  it('persists every trigger accepted in one turn, once per trigger key', async () => {
    const intake = createTriggerIntake({ queue });
    const same = '2026-01-01T00:00:00Z';
    const triggers = [trigger(10), trigger(11), trigger(12, same), trigger(12, same), trigger(13)];
    const ids = await Promise.all(triggers.map((t) => intake.accept(t)));
    expect(ids.map((r) => r.jobId)).toEqual(triggers.map((t) => triggerJobId(t.triggerKey)));
    const jobs = await queue.getJobs(['wait']);
    expect(jobs.map((j) => j.data.issue.number).sort()).toEqual([10, 11, 12, 13]);
    // One alone in its turn is added too, and a redelivery of it later adds nothing.
    await intake.accept(trigger(14));
    await intake.accept(triggers[0]!);
    expect(await queue.count()).toBe(5);
  });

  it('answers 503 for every trigger of a turn when Redis fails', async () => {
    await queue.close();
    const intake = createTriggerIntake({ queue, timeoutMs: 2000 });
    const results = await Promise.allSettled([
      intake.accept(trigger(20)),
      intake.accept(trigger(21)),
    ]);
    for (const r of results) {
      expect(r.status).toBe('rejected');
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(QueueUnavailableError);
    }
    queue = new Queue<TriggerJobData>(TRIGGER_QUEUE, { connection: { url: REDIS_URL }, prefix });
  });
});
