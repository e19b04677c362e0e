import { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';
import { sandboxOption } from '../sandbox-option.js';

export function demoCommand(): Command {
  return new Command('demo')
    .description(
      'See Autofix work with nothing to configure: a sample repository with a bug, a failing test ' +
        'and an issue, fixed by the real pipeline against a built-in scripted model on 127.0.0.1 ' +
        '(no API key, no GitHub). With --app, through `autofix serve`, Redis and a bundled fake GitHub.',
    )
    .option(
      '--app',
      'run it as the GitHub App: `autofix serve` in-process, Redis (REDIS_URL, default 127.0.0.1:6379), a fake GitHub on loopback',
    )
    .option('--dir <path>', 'folder for the demo (new or empty; default: a new temporary folder)')
    .option(
      '--workdir <path>',
      'workspace cache and artifacts (default: <dir>/workdir, removed at the end)',
    )
    .option(
      '--keep',
      "keep the workspace cache (the sample repository and the run's artifacts always stay)",
    )
    .addOption(sandboxOption())
    .action(lazyAction(async () => (await import('../actions/demo.js')).demo));
}
