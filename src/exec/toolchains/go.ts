/**
 * Go in the sandbox. `setup` downloads modules (through the egress proxy: proxy.golang.org and
 * sum.golang.org are on the default allowlist) into the repository's cache; `validate` has no
 * network and reads that module cache read-only (`GOPROXY=off`: a missing module fails at once,
 * saying so), with a build cache of the job's own. `GOTOOLCHAIN=local`:
 * never download another Go because `go.mod` asks for one — the version warning says so instead.
 * No `GOFLAGS=-mod=mod`: it would let `go` rewrite the tracked `go.mod`/`go.sum`.
 */
import { join } from 'node:path';
import { toolVersions } from './tool-versions.js';
import type { CachePaths, RequestedVersion, ToolchainCacheEnv } from './types.js';

export const GO = 'Go';

export const goCacheEnv: ToolchainCacheEnv = {
  shared: ['go/pkg/mod'],
  setup: ({ cache }: Pick<CachePaths, 'cache'>) => ({
    GOTOOLCHAIN: 'local',
    GOPATH: join(cache, 'go'),
    GOMODCACHE: join(cache, 'go', 'pkg', 'mod'),
    GOCACHE: join(cache, 'go-build'),
  }),
  validate: ({ cache, tmp, build }: CachePaths) => ({
    GOTOOLCHAIN: 'local',
    GOPROXY: 'off',
    GOPATH: join(tmp, 'go'),
    GOMODCACHE: join(cache, 'go', 'pkg', 'mod'),
    GOCACHE: join(build, 'go-build'),
  }),
};

/**
 * The `toolchain` directive of `go.mod`, else its `go` directive (the least Go that builds the
 * module), else `.tool-versions`' `golang` line.
 */
export function goRequested(files: {
  goMod?: string;
  toolVersions?: string;
}): RequestedVersion | undefined {
  const directive = (name: string): string | undefined =>
    new RegExp(`^\\s*${name}\\s+(?:go)?(\\d+(?:\\.\\d+)*[\\w.-]*)\\s*(?://.*)?$`, 'm').exec(
      files.goMod ?? '',
    )?.[1];
  const toolchain = directive('toolchain');
  if (toolchain) return { toolchain: GO, version: toolchain, source: 'go.mod toolchain' };
  const go = directive('go');
  if (go) return { toolchain: GO, version: go, source: 'go.mod' };
  const asdf = files.toolVersions ? toolVersions(files.toolVersions).get('golang') : undefined;
  return asdf ? { toolchain: GO, version: asdf, source: '.tool-versions' } : undefined;
}

/** "go version go1.19.8 linux/amd64" → "1.19.8". */
export function parseGoVersion(output: string): string | undefined {
  return /\bgo(\d+(?:\.\d+)*)/.exec(output)?.[1];
}
