import { Command } from 'commander';
import { notBuilt } from './not-built.js';

export function workerCommand(): Command {
  return notBuilt(
    new Command('worker').description(
      'Run job processors only (start many against one Redis to scale out).',
    ),
    'issue #7',
  );
}
