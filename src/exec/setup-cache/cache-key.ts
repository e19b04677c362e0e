/**
 * What decides a repository's installed dependencies (pure): the key of a setup-cache entry.
 * Dependencies are keyed by the lockfiles and manifests (their git blob ids), the `setup`
 * commands, the toolchains setup can use, the platform and the sandbox; anything else setup made
 * (a build output) may depend on the sources, so such an entry's key adds the commit's tree.
 */
import { createHash } from 'node:crypto';

/** Bump when what an entry holds or how it is restored changes. */
export const SETUP_CACHE_VERSION = 2;

/** Files whose content decides what `setup` installs, by base name, at any depth. */
const LOCK_NAMES = new Set([
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  '.yarnrc',
  '.yarnrc.yml',
  'pnpm-lock.yaml',
  'pnpm-workspace.yaml',
  'bun.lockb',
  'bun.lock',
  '.npmrc',
  '.nvmrc',
  '.node-version',
  'requirements.txt',
  'constraints.txt',
  'pyproject.toml',
  'poetry.lock',
  'pdm.lock',
  'uv.lock',
  'Pipfile',
  'Pipfile.lock',
  'setup.py',
  'setup.cfg',
  '.python-version',
  'Gemfile',
  'Gemfile.lock',
  'composer.json',
  'composer.lock',
  'go.mod',
  'go.sum',
  'Cargo.toml',
  'Cargo.lock',
]);

/** `requirements-dev.txt`, `requirements/test.in` and the like. */
const REQUIREMENTS = /^requirements[\w.-]*\.(txt|in)$/;

export function isLockfile(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return LOCK_NAMES.has(base) || REQUIREMENTS.test(base) || path.startsWith('requirements/');
}

/** Directories that hold installed dependencies, at any depth. */
const DEPENDENCY_DIRS = new Set([
  'node_modules',
  'bower_components',
  '.venv',
  'venv',
  '.tox',
  'vendor',
  '.bundle',
  '.yarn',
  '.pnpm-store',
]);

/**
 * Lockfiles an install writes when the repository commits none (`npm install` without
 * `package-lock.json`): made from the manifests and the registry, not from the sources.
 */
const GENERATED_LOCKS = new Set([
  'package-lock.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lock',
  'bun.lockb',
  'poetry.lock',
  'pdm.lock',
  'uv.lock',
  'Pipfile.lock',
  'Gemfile.lock',
  'composer.lock',
  'Cargo.lock',
  'go.sum',
]);

/** A path setup produced that is a dependency directory (or inside one), or a lockfile it wrote. */
export function isDependencyPath(path: string): boolean {
  const segments = path.split('/').filter(Boolean);
  return (
    segments.some((segment) => DEPENDENCY_DIRS.has(segment)) ||
    GENERATED_LOCKS.has(segments.at(-1) ?? '')
  );
}

/**
 * What of a `package.json` decides an install: its dependencies, overrides, workspaces, package
 * manager and engines, and the install-time scripts — not its version, description or test
 * scripts, which change with every release. Undefined when it does not parse (then the whole
 * file keys the entry).
 */
export function packageJsonInstallPart(text: string): string | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const pkg = json as Record<string, unknown>;
  const scripts = (typeof pkg.scripts === 'object' && pkg.scripts) || {};
  const pick = (o: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> =>
    Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]]));
  return JSON.stringify({
    ...pick(pkg, INSTALL_FIELDS),
    scripts: pick(scripts as Record<string, unknown>, INSTALL_SCRIPTS),
  });
}

const INSTALL_FIELDS = [
  'name',
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'bundleDependencies',
  'bundledDependencies',
  'overrides',
  'resolutions',
  'pnpm',
  'workspaces',
  'packageManager',
  'engines',
  'os',
  'cpu',
  'bin',
  'type',
] as const;
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare', 'prepublish'] as const;

export interface KeyInputs {
  /**
   * `[path, what of it decides the install]` of every lockfile or manifest in the commit: the
   * git blob id, or for a `package.json` its install part (`packageJsonInstallPart`).
   */
  lockfiles: readonly (readonly [string, string])[];
  setup: readonly string[];
  /** Fingerprints of the toolchains setup can run (`node v20.19.0`, a binary's identity…). */
  toolchain: readonly string[];
  /** `linux-x64 glibc 2.36`. */
  platform: string;
  /** `bwrap as 65534`, `bwrap`, `none`: what the files were made under. */
  sandbox: string;
}

function hash(parts: readonly string[]): string {
  const h = createHash('sha256');
  for (const part of parts) h.update(`${part.length}:${part}\n`);
  return h.digest('hex').slice(0, 32);
}

/** The key of dependencies alone. */
export function dependencyKey(inputs: KeyInputs): string {
  const lockfiles = [...inputs.lockfiles].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return hash([
    `v${SETUP_CACHE_VERSION}`,
    ...lockfiles.map(([path, blob]) => `lock ${path} ${blob}`),
    ...inputs.setup.map((line) => `setup ${line}`),
    ...inputs.toolchain.map((tool) => `tool ${tool}`),
    `platform ${inputs.platform}`,
    `sandbox ${inputs.sandbox}`,
  ]);
}

/** The key of an entry that holds more than dependencies: only for the same sources. */
export function sourceKey(depKey: string, tree: string): string {
  return hash([depKey, `tree ${tree}`]);
}
