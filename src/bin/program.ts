/**
 * The `autofix` command tree. Each subcommand's options live in `commands/<name>.ts` and what it
 * does in `actions/<name>.ts`, loaded only when that command runs: `--help` and the light
 * commands never load Probot, BullMQ or the OpenAI SDK. No logic here.
 */
import { Command } from 'commander';
import { applyPatchCommand } from './commands/apply-patch.js';
import { codeCommitCommand } from './commands/code-commit.js';
import { contextCommand } from './commands/context.js';
import { demoCommand } from './commands/demo.js';
import { runCommand } from './commands/run.js';
import { serveCommand } from './commands/serve.js';
import { toolsCommand } from './commands/tools.js';
import { workOrderCommand } from './commands/work-order.js';
import { workerCommand } from './commands/worker.js';
import { exitCodeHelp } from './exit-codes.js';

export function buildProgram(): Command {
  const program = new Command('autofix')
    .description('Turn GitHub issues into pull requests with an OpenAI-compatible LLM.')
    .version('0.1.0')
    .showHelpAfterError()
    .addHelpText('after', exitCodeHelp())
    .exitOverride();
  program.addCommand(serveCommand());
  program.addCommand(workerCommand());
  program.addCommand(runCommand());
  program.addCommand(applyPatchCommand());
  program.addCommand(codeCommitCommand());
  program.addCommand(workOrderCommand());
  program.addCommand(contextCommand());
  program.addCommand(toolsCommand());
  program.addCommand(demoCommand());
  // addCommand() does not pass settings down: usage errors must end as exit 2 everywhere.
  for (const command of program.commands) command.exitOverride().showHelpAfterError();
  return program;
}
