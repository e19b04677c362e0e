/**
 * The app lost an installation (deleted, suspended) or some of its repositories: their queued and
 * parked work ends at once, without a word to GitHub (which would refuse it). First the mark in
 * the registry, within the intake deadline (a 503 otherwise, so GitHub redelivers): from then on
 * a stage job of an earlier run ends at its guard (`scheduler/stage-job/guards/installation-gone.ts`)
 * and admission drops an earlier trigger. Then the sweep, which only makes it prompt: waiting and
 * delayed stage jobs and triggers are removed, their runs recorded as abandoned and their issues
 * released (a trigger after a reinstall starts afresh), in one log line.
 */
import type { Job, JobType, Queue } from 'bullmq';
import type { Logger } from '../logger.js';
import { abandonRun } from '../runs/end-run.js';
import type { GoneScope, RunRegistry } from '../runs/run-registry.js';
import type { Run, RunStore, StageJobData } from '../runs/run-record.js';
import { STAGES } from '../runs/types.js';
import type { StageQueues } from '../scheduler/stage-queues.js';
import { createDeadline } from '../scheduler/with-deadline.js';
import type { TriggerJobData } from './trigger-types.js';

/** Jobs that are not running: whatever a worker would pick up later. */
const WAITING: JobType[] = ['waiting', 'delayed', 'prioritized', 'waiting-children'];

export interface InstallationLifecycle {
  /** `why`: the event (`installation.deleted`, …), for the log. */
  lost(scope: GoneScope, why: string, log: Logger): Promise<void>;
}

export interface LostWork {
  /** Runs whose queued stage job was removed, or that were parked. */
  runs: string[];
  /** Triggers removed before admission. */
  triggers: number;
  /** Jobs a worker took meanwhile: their guard ends them. */
  missed: number;
}

function inScope(scope: GoneScope, installationId: number, repo: string): boolean {
  if (installationId !== scope.installationId) return false;
  if (!scope.repositories) return true;
  return scope.repositories.some((r) => r.toLowerCase() === repo.toLowerCase());
}

/** Removes the job unless a worker holds it now (its guard ends it then). */
async function removed(job: Job): Promise<boolean> {
  return job.remove().then(
    () => true,
    () => false,
  );
}

/** Removes the parked jobs of `scope` accepted before `at`, and ends their runs. */
export async function sweepLostWork(
  options: LifecycleDeps,
  scope: GoneScope,
  at: number,
): Promise<LostWork> {
  const lost: LostWork = { runs: [], triggers: 0, missed: 0 };
  const gone = (data: Run | undefined): data is Run =>
    !!data &&
    !data.ending &&
    data.acceptedAt <= at &&
    inScope(scope, data.installationId, data.repository.fullName);
  for (const stage of STAGES) {
    const jobs = (await options.queues[stage].getJobs(WAITING)) as (
      Job<StageJobData> | undefined
    )[];
    for (const job of jobs) {
      const data = job?.data?.runId ? await options.runs.get(job.data.runId) : undefined;
      if (!job || !gone(data)) continue;
      if (!(await removed(job))) {
        lost.missed++;
        continue;
      }
      await abandonRun(options, data, 'the installation or repository is gone');
      lost.runs.push(data.runId);
    }
  }
  // Parked runs have no job: they end the same way.
  for (const runId of await options.runs.parked()) {
    const data = await options.runs.get(runId);
    if (!gone(data)) continue;
    await abandonRun(options, data, 'the installation or repository is gone');
    lost.runs.push(data.runId);
  }
  for (const job of await options.triggers.getJobs(WAITING)) {
    const t = job?.data;
    if (!job || !t || t.receivedAt > at) continue;
    if (!inScope(scope, t.installationId, t.repository.full_name)) continue;
    if (await removed(job)) lost.triggers++;
    else lost.missed++;
  }
  return lost;
}

interface LifecycleDeps {
  queues: StageQueues;
  triggers: Queue<TriggerJobData>;
  registry: RunRegistry;
  runs: RunStore;
}

export function createInstallationLifecycle(
  options: LifecycleDeps & {
    /** Longest wait for Redis to take the mark before answering 503. */
    timeoutMs?: number;
  },
): InstallationLifecycle {
  return {
    async lost(scope, why, log) {
      const at = Date.now();
      const deadline = createDeadline(options.timeoutMs ?? 3000);
      try {
        await deadline.race(options.registry.markGone(scope, at), 'mark the installation gone');
      } finally {
        deadline.clear();
      }
      const fields = {
        event: why,
        installationId: scope.installationId,
        ...(scope.repositories ? { repositories: scope.repositories } : {}),
      };
      try {
        const lost = await sweepLostWork(options, scope, at);
        log.info(
          { ...fields, ...lost },
          `app lost the installation or repositories: ${lost.runs.length} queued run(s) ended, ` +
            `${lost.triggers} trigger(s) dropped, nothing posted`,
        );
      } catch (err) {
        // The mark holds: each remaining job ends at its guard instead.
        log.warn({ ...fields, err }, 'app lost the installation; its queued jobs end as they come');
      }
    },
  };
}
