#!/usr/bin/env node
import { CommanderError } from 'commander';
import { exitCodeFor } from './exit-codes.js';
import { buildProgram } from './program.js';

try {
  await buildProgram().parseAsync(process.argv);
} catch (err) {
  // Commander printed its own message (usage error, --help, --version); anything else is ours.
  if (!(err instanceof CommanderError))
    console.error(`autofix: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = exitCodeFor(err);
}
