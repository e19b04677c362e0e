import type { Command } from 'commander';
import { EXIT } from '../exit-codes.js';

/** Marks a subcommand whose implementation has not landed yet: says so and exits USAGE. */
export function notBuilt(command: Command, issue: string): Command {
  return command.action(() => {
    console.error(`autofix ${command.name()}: not built yet (tracked in ${issue}).`);
    process.exitCode = EXIT.USAGE;
  });
}
