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
  // A command that failed is over: whatever it left open (a Redis connection of a server that
  // could not listen) must not keep the process alive after the message (issue #37).
  process.exit(exitCodeFor(err));
}
