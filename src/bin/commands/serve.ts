import { Command } from 'commander';
import { environmentHelp } from '../../config/env-vars.js';
import { lazyAction } from '../lazy-action.js';
import { withWorkerFlags } from './worker-flags.js';

export function serveCommand(): Command {
  return withWorkerFlags(
    new Command('serve')
      .description(
        'Serve GitHub webhooks (and run job processors in-process unless --no-workers). ' +
          'With no GitHub App credentials at all (APP_ID, PRIVATE_KEY or PRIVATE_KEY_PATH, ' +
          'WEBHOOK_SECRET), it serves a setup page that registers the app from app.yml.',
      )
      .option(
        '--no-workers',
        'only take webhooks; run `autofix worker` processes separately (default: job processors run in this process)',
      ),
  )
    .addHelpText('after', environmentHelp('serve'))
    .action(lazyAction(async () => (await import('../actions/serve.js')).serve));
}
