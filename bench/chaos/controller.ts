/**
 * Injects the scheduled faults into the running system: kills (the slot restarts the process
 * after the chosen down time), Redis restarts on the same port and directory, and disruptions of
 * the fake GitHub's next matching requests. A fault that cannot apply (its process is already
 * down) is recorded as skipped, not counted.
 */
import type { FakeGitHub } from '../../fakes/github/index.js';
import type { Slot } from './app-processes.js';
import type { BenchRedis } from './redis.js';
import type { Fault, FaultEvent } from './schedule.js';

export interface World {
  github: FakeGitHub;
  redis: BenchRedis;
  serve: Slot;
  workers: Slot[];
}

export interface InjectedFault {
  /** When it was injected, ms since the start of the schedule. */
  atMs: number;
  fault: Fault;
  applied: boolean;
  note?: string;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const SECONDARY_LIMIT =
  'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.';

export function createController(world: World, elapsed: () => number) {
  const pending = new Set<Promise<void>>();
  const injected: InjectedFault[] = [];
  let redisBusy = false;

  const track = (work: Promise<void>): void => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };

  const restartRedis = async (signal: 'SIGTERM' | 'SIGKILL', downMs: number): Promise<void> => {
    redisBusy = true;
    try {
      await world.redis.stop(signal);
      await sleep(downMs);
      for (let attempt = 1; ; attempt++) {
        try {
          await world.redis.start();
          return;
        } catch (err) {
          if (attempt >= 5) throw err;
          await sleep(500);
        }
      }
    } finally {
      redisBusy = false;
    }
  };

  const apply = (fault: Fault): { applied: boolean; note?: string } => {
    const { github } = world;
    switch (fault.kind) {
      case 'worker-kill': {
        const slot =
          [world.workers[fault.worker - 1], ...world.workers].find((s) => s?.up()) ?? undefined;
        if (!slot) return { applied: false, note: 'no worker up' };
        slot.kill('SIGKILL', fault.downMs);
        return { applied: true, note: slot.name };
      }
      case 'serve-kill':
        if (!world.serve.up()) return { applied: false, note: 'serve already down' };
        world.serve.kill('SIGKILL', fault.downMs);
        return { applied: true };
      case 'redis-restart':
        if (redisBusy || !world.redis.up()) return { applied: false, note: 'redis already down' };
        track(restartRedis(fault.signal, fault.downMs));
        return { applied: true };
      case 'github-502':
        github.disruptNext({
          method: fault.target.method,
          path: fault.target.path,
          times: fault.times,
          status: 502,
          message: 'Server Error',
        });
        return { applied: true };
      case 'github-403-retry-after':
        github.disruptNext({
          method: fault.target.method,
          path: fault.target.path,
          times: fault.times,
          status: 403,
          headers: { 'retry-after': String(fault.retryAfterS) },
          message: SECONDARY_LIMIT,
        });
        return { applied: true };
      case 'github-timeout':
        github.disruptNext({
          method: fault.target.method,
          path: fault.target.path,
          times: fault.times,
          delayMs: fault.delayMs,
          drop: true,
        });
        return { applied: true };
      case 'github-slow':
        github.disruptNext({
          method: fault.target.method,
          path: fault.target.path,
          times: fault.times,
          delayMs: fault.delayMs,
        });
        return { applied: true };
    }
  };

  return {
    injected,
    inject(event: FaultEvent): InjectedFault {
      const result = apply(event.fault);
      const record: InjectedFault = { atMs: elapsed(), fault: event.fault, ...result };
      injected.push(record);
      return record;
    },
    /** Resolves once every Redis restart in progress is done. */
    async settled(): Promise<void> {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

export type Controller = ReturnType<typeof createController>;
