#!/usr/bin/env node
import { CommanderError } from 'commander';
import { buildProgram } from './program.js';

try {
  await buildProgram().parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    // --help and --version end here with code 0; usage errors with 2 (commander printed them).
    process.exitCode = err.exitCode === 0 ? 0 : 2;
  } else {
    console.error(`autofix: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  }
}
