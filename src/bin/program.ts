/** The `autofix` command tree. Each subcommand lives in `commands/<name>.ts`; no logic here. */
import { Command } from 'commander';
import { applyPatchCommand } from './commands/apply-patch.js';
import { codeCommitCommand } from './commands/code-commit.js';
import { contextCommand } from './commands/context.js';
import { runCommand } from './commands/run.js';
import { serveCommand } from './commands/serve.js';
import { workOrderCommand } from './commands/work-order.js';
import { workerCommand } from './commands/worker.js';

export function buildProgram(): Command {
  const program = new Command('autofix')
    .description('Turn GitHub issues into pull requests with an OpenAI-compatible LLM.')
    .version('0.1.0')
    .showHelpAfterError()
    .exitOverride();
  program.addCommand(serveCommand());
  program.addCommand(workerCommand());
  program.addCommand(runCommand());
  program.addCommand(applyPatchCommand());
  program.addCommand(codeCommitCommand());
  program.addCommand(workOrderCommand());
  program.addCommand(contextCommand());
  // addCommand() does not pass settings down: usage errors must end as exit 2 everywhere.
  for (const command of program.commands) command.exitOverride().showHelpAfterError();
  return program;
}
