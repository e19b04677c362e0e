/** Flags shared by `serve` and `worker`; each can also come from the environment (commander reads it). */
import { Option, type Command } from 'commander';
import type { RateLimit } from '../../queue/installation-limiter.js';
import { parseConcurrency, parseRateLimit, parseSeconds } from '../../queue/worker-options.js';
import type { StageConcurrency } from '../../queue/worker-pool.js';

export interface WorkerFlags {
  queuePrefix: string;
  concurrency: string;
  rateLimit: string;
  shutdownDeadline: string;
  stalledAfter: string;
}

export function withWorkerFlags(command: Command): Command {
  return command
    .addOption(
      new Option('--queue-prefix <prefix>', 'key prefix of the queues in Redis')
        .env('AUTOFIX_QUEUE_PREFIX')
        .default('autofix'),
    )
    .addOption(
      new Option('--concurrency <list>', 'stage jobs run at once per process, e.g. code=1')
        .env('AUTOFIX_CONCURRENCY')
        .default('triage=4,plan=4,code=2,pr=4'),
    )
    .addOption(
      new Option(
        '--rate-limit <n/window>',
        'stage jobs one installation may start per window, or off',
      )
        .env('AUTOFIX_RATE_LIMIT')
        .default('30/60s'),
    )
    .addOption(
      new Option('--shutdown-deadline <seconds>', 'on SIGTERM, wait this long for active jobs')
        .env('AUTOFIX_SHUTDOWN_DEADLINE')
        .default('60'),
    )
    .addOption(
      new Option(
        '--stalled-after <seconds>',
        'a job whose worker died (killed, lost its host) is taken up again after about this long',
      )
        .env('AUTOFIX_STALLED_AFTER')
        .default('60'),
    );
}

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
    if (stopping) process.exit(1);
    stopping = true;
    log(`${signal}: stopping (no new jobs; active ones are interrupted and requeued)`);
    stop().then(
      ({ forced }) => process.exit(forced ? 1 : 0),
      (err: unknown) => {
        console.error(`autofix: shutdown failed: ${(err as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
