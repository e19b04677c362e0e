import { Command } from 'commander';
import { environmentHelp } from '../../config/env-vars.js';
import { lazyAction } from '../lazy-action.js';
import { withWorkerFlags } from './worker-flags.js';

export function workerCommand(): Command {
  return withWorkerFlags(
    new Command('worker')
      .description('Run job processors only (start many against one Redis to scale out).')
      .option(
        '--metrics-port <port>',
        'serve /healthz, /readyz and /metrics on this port (default: none)',
      ),
  )
    .addHelpText('after', environmentHelp('worker'))
    .action(lazyAction(async () => (await import('../actions/worker.js')).worker));
}
