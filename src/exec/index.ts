/** The command runner's surface for the pipeline (docs/SECURITY.md, rule 4). */
export {
  checkSandbox,
  runCommand,
  type ExecResult,
  type RunCommandOptions,
} from './run-command.js';
export {
  runValidation,
  type ValidationOptions,
  type ValidateCache,
  type ValidationPhase,
  type ValidationRun,
} from './run-validation.js';
export { formatCommand, splitCommand } from './split-command.js';
export { resetSandboxProbe } from './sandbox.js';
export { cliSandbox, operatorSandbox } from './operator-sandbox.js';
export {
  basicSandboxPolicy,
  unsandboxedWarning,
  withRepoSandbox,
  UNSANDBOXED_WARNING,
  type RepoSandboxSetting,
  type SandboxMode,
  type SandboxPolicy,
} from './sandbox-policy.js';
export { passthroughValues } from './command-env.js';
export {
  goRequested,
  installedVersions,
  javaRequested,
  runVersionCommand,
  TOOLCHAIN_SHARED_CACHES,
  toolchainSetupEnv,
  toolchainValidateEnv,
  versionWarnings,
  type RequestedVersion,
} from './toolchains/index.js';
export {
  linkModeFor,
  openSetupCache,
  type SetupCache,
  type SetupCacheOutcome,
} from './setup-cache/setup-cache.js';
export {
  discardHandOff,
  handOffSetup,
  setupDoneFile,
  takeHandOff,
  type HandOffJob,
} from './setup-cache/handoff.js';
