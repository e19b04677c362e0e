/**
 * Deliveries first (intake/deliveries-first.ts): the admission worker takes a trigger only once
 * intake lets it. Real Redis, real BullMQ.
 */
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import {
  startAdmissionWorker,
  type AdmissionWorker,
} from '../../../src/intake/admission-worker.js';
import { createDeliveryActivity } from '../../../src/intake/deliveries-first.js';
import { labelTrigger } from '../../../src/intake/build-trigger.js';
import { TRIGGER_QUEUE, type TriggerJobData } from '../../../src/intake/trigger-types.js';
import type { GitHubClient } from '../../../src/github/types.js';
import { createLogger } from '../../../src/logger.js';
import { deleteKeys } from '../../../src/scheduler/delete-keys.js';
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
});
