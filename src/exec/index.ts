/** The command runner's surface for the pipeline (DESIGN.md §5.4). */
export { runCommand, type ExecResult, type RunCommandOptions } from './run-command.js';
export {
  runValidation,
  type ValidationOptions,
  type ValidationPhase,
  type ValidationRun,
} from './run-validation.js';
export { formatCommand, splitCommand } from './split-command.js';
export { resolveSandbox, type SandboxChoice, type SandboxMode } from './sandbox.js';
