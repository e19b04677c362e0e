import {
  dependencyKey,
  isDependencyPath,
  isLockfile,
  packageJsonInstallPart,
  sourceKey,
  type KeyInputs,
} from '../../../../src/exec/setup-cache/cache-key.js';
import { setupProducts } from '../../../../src/exec/setup-cache/captured-paths.js';
import { embeddedPath, relocateText } from '../../../../src/exec/setup-cache/relocate.js';

const inputs: KeyInputs = {
  lockfiles: [
    ['package-lock.json', 'a1'],
    ['packages/x/package.json', 'b2'],
  ],
  setup: ['npm ci'],
  toolchain: ['node /usr/bin/node 100 5 v20.19.0'],
  platform: 'linux-x64 glibc 2.36',
  sandbox: 'bwrap as 65534 link',
};

describe('the setup-cache key', () => {
  it('is stable and independent of the lockfiles’ order', () => {
    expect(dependencyKey(inputs)).toMatch(/^[0-9a-f]{32}$/);
    expect(dependencyKey({ ...inputs, lockfiles: [...inputs.lockfiles].reverse() })).toBe(
      dependencyKey(inputs),
    );
  });

  it.each<[string, Partial<KeyInputs>]>([
    ['a lockfile’s content', { lockfiles: [['package-lock.json', 'a2'], inputs.lockfiles[1]!] }],
    ['a lockfile more', { lockfiles: [...inputs.lockfiles, ['yarn.lock', 'c3']] }],
    ['a lockfile moved', { lockfiles: [['sub/package-lock.json', 'a1'], inputs.lockfiles[1]!] }],
    ['the setup commands', { setup: ['npm ci --ignore-scripts'] }],
    ['a toolchain', { toolchain: ['node /usr/bin/node 100 6 v20.20.0'] }],
    ['the platform', { platform: 'linux-arm64 glibc 2.36' }],
    ['the sandbox', { sandbox: 'none copy' }],
  ])('changes with %s', (_what, change) => {
    expect(dependencyKey({ ...inputs, ...change })).not.toBe(dependencyKey(inputs));
  });

  it('keys what builds from the sources with the tree as well', () => {
    const dep = dependencyKey(inputs);
    expect(sourceKey(dep, 't1')).not.toBe(dep);
    expect(sourceKey(dep, 't1')).not.toBe(sourceKey(dep, 't2'));
    expect(sourceKey(dep, 't1')).toBe(sourceKey(dep, 't1'));
  });

  it('knows lockfiles and manifests at any depth, and nothing else', () => {
    for (const path of [
      'package-lock.json',
      'a/b/package.json',
      'yarn.lock',
      'pnpm-lock.yaml',
      'requirements-dev.txt',
      'requirements/test.in',
      'pyproject.toml',
      'poetry.lock',
      'Gemfile.lock',
      'go.sum',
      '.nvmrc',
    ]) {
      expect([path, isLockfile(path)]).toEqual([path, true]);
    }
    for (const path of ['src/index.js', 'package.jsonx', 'README.md', 'lock/package.js']) {
      expect([path, isLockfile(path)]).toEqual([path, false]);
    }
  });

  it('tells dependency directories from build outputs', () => {
    expect(isDependencyPath('node_modules')).toBe(true);
    expect(isDependencyPath('packages/a/node_modules')).toBe(true);
    expect(isDependencyPath('.venv')).toBe(true);
    expect(isDependencyPath('vendor/bundle')).toBe(true);
    expect(isDependencyPath('dist')).toBe(false);
    expect(isDependencyPath('src/generated.js')).toBe(false);
    expect(isDependencyPath('node_modules_backup')).toBe(false);
    // A lockfile the install wrote (the repository commits none) comes from the manifests.
    expect(isDependencyPath('package-lock.json')).toBe(true);
    expect(isDependencyPath('packages/a/yarn.lock')).toBe(true);
    expect(isDependencyPath('package.json')).toBe(false);
  });
});

describe('what setup produced', () => {
  const z = (...lines: string[]): string => lines.map((l) => `${l}\0`).join('');

  it('takes untracked and ignored paths; dependencies alone do not depend on the sources', () => {
    expect(
      setupProducts(z('!! node_modules/', '!! packages/a/node_modules/', '?? .venv/')),
    ).toEqual({
      products: ['.venv', 'node_modules', 'packages/a/node_modules'],
      sourceDependent: false,
      trackedEdits: [],
      trackedChanges: [],
    });
  });

  it('a build output makes the entry depend on the sources', () => {
    expect(setupProducts(z('!! node_modules/', '!! dist/')).sourceDependent).toBe(true);
  });

  it('tells tracked files setup rewrote from those it renamed or deleted, a rename’s source skipped', () => {
    const found = setupProducts(
      z(' M package-lock.json', 'R  new.js', 'old.js', ' D gone.js', '?? node_modules/'),
    );
    expect(found.trackedEdits).toEqual(['package-lock.json']);
    expect(found.trackedChanges).toEqual(['new.js', 'gone.js']);
    expect(found.products).toEqual(['node_modules']);
    // A rewritten lockfile comes from the manifests; a rewritten source file from the sources.
    expect(found.sourceDependent).toBe(false);
    expect(setupProducts(z(' M src/version.js')).sourceDependent).toBe(true);
    // A type change (a file turned into a FIFO or a link) is not a rewrite.
    expect(setupProducts(z(' T test/a.test.mjs')).trackedChanges).toEqual(['test/a.test.mjs']);
  });

  it('nothing when setup left the worktree clean', () => {
    expect(setupProducts('')).toEqual({
      products: [],
      sourceDependent: false,
      trackedEdits: [],
      trackedChanges: [],
    });
  });
});

describe('relocation', () => {
  const from = '/w/jobs/job-1';
  const to = '/w/jobs/job-22';

  it('rewrites whole path prefixes only', () => {
    const text = `#!${from}/demo/.venv/bin/python\nhome = ${from}\nx=${from}0/y "${from}"\n`;
    expect(relocateText(text, from, to)).toBe(
      `#!${to}/demo/.venv/bin/python\nhome = ${to}\nx=${from}0/y "${to}"\n`,
    );
  });

  it('never leaves the old path behind in what it rewrote', () => {
    const text = `${from}/a:${from}/b\n${from}`;
    expect(relocateText(text, from, to)).not.toContain(`${from}/`);
  });

  it('tells text from binary files that embed the path', () => {
    expect(embeddedPath(Buffer.from(`#!${from}/x\n`), from)).toBe('text');
    expect(embeddedPath(Buffer.from(`\0\u0001${from}/x`), from)).toBe('binary');
    expect(embeddedPath(Buffer.from('#!/usr/bin/env node\n'), from)).toBe('none');
  });
});

describe("a package.json's install part", () => {
  const pkg = (extra: Record<string, unknown>): string =>
    JSON.stringify({
      name: 'dayjs',
      version: '1.11.7',
      description: 'd',
      scripts: { test: 'jest', postinstall: 'node x.js' },
      devDependencies: { jest: '^24.0.0' },
      ...extra,
    });

  it('ignores what changes with every release: version, description, test scripts', () => {
    expect(packageJsonInstallPart(pkg({ version: '1.11.8', description: 'e' }))).toBe(
      packageJsonInstallPart(pkg({})),
    );
    expect(
      packageJsonInstallPart(pkg({ scripts: { test: 'vitest', postinstall: 'node x.js' } })),
    ).toBe(packageJsonInstallPart(pkg({})));
  });

  it.each<[string, Record<string, unknown>]>([
    ['a dependency', { devDependencies: { jest: '^25.0.0' } }],
    ['an install script', { scripts: { test: 'jest', postinstall: 'node y.js' } }],
    ['overrides', { overrides: { a: '1' } }],
    ['workspaces', { workspaces: ['packages/*'] }],
    ['the package manager', { packageManager: 'pnpm@9.0.0' }],
    ['engines', { engines: { node: '>=18' } }],
  ])('changes with %s', (_, extra) => {
    expect(packageJsonInstallPart(pkg(extra))).not.toBe(packageJsonInstallPart(pkg({})));
  });

  it('is undefined for a file that is not a JSON object (the whole file keys it then)', () => {
    expect(packageJsonInstallPart('{ not json')).toBeUndefined();
    expect(packageJsonInstallPart('[1]')).toBeUndefined();
  });
});
