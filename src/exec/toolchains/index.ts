/** Toolchains in the sandbox: their caches per phase, and the versions a repository asks for. */
export { TOOLCHAIN_SHARED_CACHES, toolchainSetupEnv, toolchainValidateEnv } from './cache-env.js';
export { GO, goCacheEnv, goRequested, parseGoVersion } from './go.js';
export { JAVA, javaCacheEnv, javaRequested, mavenProxySettings, parseJavaVersion } from './java.js';
export { installedVersions, runVersionCommand, type VersionCommand } from './probe.js';
export { toolVersions } from './tool-versions.js';
export {
  compareVersions,
  type CachePaths,
  type RequestedVersion,
  type ToolchainCacheEnv,
} from './types.js';
export { versionWarnings } from './version-warnings.js';
