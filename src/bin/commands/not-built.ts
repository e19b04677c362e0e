import type { Command } from 'commander';

/** Marks a subcommand whose implementation has not landed yet: says so and exits 2. */
export function notBuilt(command: Command, issue: string): Command {
  return command.action(() => {
    console.error(`autofix ${command.name()}: not built yet (tracked in ${issue}).`);
    process.exitCode = 2;
  });
}
