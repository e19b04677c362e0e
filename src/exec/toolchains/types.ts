/**
 * The shape every toolchain module shares (one file per toolchain in this folder): the version a
 * repository asks for, and where its per-repository caches live in each phase.
 */

/** A version a repository's own file asks for: `{ toolchain: 'Go', version: '1.23', source: 'go.mod' }`. */
export interface RequestedVersion {
  /** The toolchain's display name, as in the warning ("Go", "Java"). */
  toolchain: string;
  version: string;
  /** The file (and key) that says so. */
  source: string;
}

/** Where a command's caches are, as the command sees them. */
export interface CachePaths {
  /** The repository's cache folder: writable in `setup`, read-only in `validate`. */
  cache: string;
  /** A writable scratch folder of the command (the sandbox's private /tmp, or the job's TMPDIR). */
  tmp: string;
  /**
   * A writable folder kept across the job's commands, and only its (build caches: a `go test`
   * with an empty GOCACHE costs ~1 s more on a one-file module, `npm run bench:toolchains`).
   */
  build: string;
}

/** The variables a toolchain needs in `setup` (downloads allowed) and in `validate` (offline). */
export interface ToolchainCacheEnv {
  /**
   * The folders of the cache (relative) that `validate` reads: only these are bound into it, so
   * anything else a setup command left in the cache (npm's, pip's, a stray credential) stays out.
   */
  shared: readonly string[];
  setup(paths: Pick<CachePaths, 'cache'>): Record<string, string>;
  validate(paths: CachePaths): Record<string, string>;
}

/** Compares dotted versions by their numbers ("1.21rc1" counts as 1.21): < 0, 0 or > 0. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string): number[] =>
    (/^\d+(?:\.\d+)*/.exec(v)?.[0] ?? '').split('.').filter(Boolean).map(Number);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
