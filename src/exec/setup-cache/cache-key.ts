/**
 * What decides a repository's installed dependencies (pure): the key of a setup-cache entry.
 * Dependencies are keyed by the lockfiles and manifests (their git blob ids), the `setup`
 * commands, the toolchains setup can use, the platform and the sandbox; anything else setup made
 * (a build output) may depend on the sources, so such an entry's key adds the commit's tree.
 */
import { createHash } from 'node:crypto';

/** Bump when what an entry holds or how it is restored changes. */
export const SETUP_CACHE_VERSION = 1;

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

/** A path setup produced that is a dependency directory (or inside one). */
export function isDependencyPath(path: string): boolean {
  return path
    .split('/')
    .filter(Boolean)
    .some((segment) => DEPENDENCY_DIRS.has(segment));
}

export interface KeyInputs {
  /** `[path, git blob id]` of every lockfile or manifest in the commit. */
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
