/** Every toolchain's cache variables for one phase, merged (they name different variables). */
import { goCacheEnv } from './go.js';
import { javaCacheEnv } from './java.js';
import type { CachePaths, ToolchainCacheEnv } from './types.js';

const TOOLCHAINS: readonly ToolchainCacheEnv[] = [goCacheEnv, javaCacheEnv];

export function toolchainSetupEnv(paths: Pick<CachePaths, 'cache'>): Record<string, string> {
  return Object.assign({}, ...TOOLCHAINS.map((t) => t.setup(paths))) as Record<string, string>;
}

/** The folders of the repository's cache that `validate` reads (relative, `/`-separated). */
export const TOOLCHAIN_SHARED_CACHES: readonly string[] = TOOLCHAINS.flatMap((t) => t.shared);

export function toolchainValidateEnv(paths: CachePaths): Record<string, string> {
  return Object.assign({}, ...TOOLCHAINS.map((t) => t.validate(paths))) as Record<string, string>;
}
