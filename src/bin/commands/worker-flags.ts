/** Flags shared by `serve` and `worker`; each can also come from the environment (commander reads it). */
import { Option, type Command } from 'commander';

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
