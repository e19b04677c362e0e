/** What `serve` and `worker` do with their shared flags once they run (see `commands/worker-flags.ts`). */
import { missingFor, type Settings } from '../../config/env.js';
import type { Logger } from '../../logger.js';
import type { RateLimit } from '../../scheduler/installation-limiter.js';
import { parseConcurrency, parseRateLimit, parseSeconds } from '../../scheduler/worker-options.js';
import type { StageConcurrency } from '../../scheduler/worker-pool.js';
import type { WorkerFlags } from '../commands/worker-flags.js';
import { EXIT } from '../exit-codes.js';

export function readWorkerFlags(flags: WorkerFlags): {
  prefix: string;
  concurrency: Partial<StageConcurrency>;
  rateLimit: RateLimit | undefined;
  shutdownDeadlineMs: number;
  /** BullMQ lock duration; the stalled-job check runs twice as often. */
  lockDurationMs: number;
  stalledIntervalMs: number;
} {
  const lockDurationMs = parseSeconds('--stalled-after', flags.stalledAfter);
  return {
    prefix: flags.queuePrefix,
    concurrency: parseConcurrency(flags.concurrency),
    rateLimit: parseRateLimit(flags.rateLimit),
    shutdownDeadlineMs: parseSeconds('--shutdown-deadline', flags.shutdownDeadline),
    lockDurationMs,
    stalledIntervalMs: Math.max(500, Math.round(lockDurationMs / 2)),
  };
}

/** SIGTERM/SIGINT: graceful stop, then exit; a second signal exits at once. */
export function stopOnSignals(
  stop: () => Promise<{ forced: boolean }>,
  log: (msg: string) => void,
): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) process.exit(EXIT.FAILED);
    stopping = true;
    log(`${signal}: stopping (no new jobs; active ones are interrupted and requeued)`);
    stop().then(
      ({ forced }) => process.exit(forced ? EXIT.FAILED : EXIT.OK),
      (err: unknown) => {
        console.error(`autofix: shutdown failed: ${(err as Error).message}`);
        process.exit(EXIT.FAILED);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/**
 * A process that runs stage jobs without any LLM configured starts (the operator may add it
 * later), but says once, at start, that the first run will fail and what to set.
 */
export function warnWithoutLlm(settings: Settings, log: Logger): void {
  if (missingFor(settings, 'llm').length === 0) return;
  log.warn(
    'No LLM configured (OPENAI_API_KEY and OPENAI_BASE_URL are both unset): every run will fail ' +
      'in triage. Set OPENAI_API_KEY for OpenAI, or OPENAI_BASE_URL for another ' +
      'OpenAI-compatible server (a local one needs no key), and restart.',
  );
}
