/**
 * What kind of file a path is, as a maintainer sees it at a glance: program source, or one of
 * the files that describe, check or are produced from it (tests, docs, changelogs, examples,
 * issue templates and CI config, build output, vendored or generated code, configuration). Only
 * source is where a behaviour bug is fixed; the others share the issue's words because they talk
 * about the same feature, so the ranking demotes them unless the issue is about them. Pure.
 */

export type PathKind =
  | 'source'
  | 'test'
  | 'docs'
  | 'changelog'
  | 'example'
  | 'meta'
  | 'build'
  | 'vendored'
  | 'config'
  | 'declarations';

const TEST_DIRS = new Set([
  'test',
  'tests',
  '__tests__',
  '__test__',
  'spec',
  'specs',
  '__mocks__',
  'testdata',
  'test_data',
  'fixtures',
  '__fixtures__',
  'e2e',
  'integration-tests',
  'benchmark',
  'benchmarks',
  'bench',
]);
const DOC_DIRS = new Set(['doc', 'docs', 'documentation', 'website']);
const EXAMPLE_DIRS = new Set([
  'example',
  'examples',
  'sample',
  'samples',
  'demo',
  'demos',
  'tutorial',
  'tutorials',
  'playground',
  'cookbook',
]);
const BUILD_DIRS = new Set(['dist', 'build', 'out', 'lib-cov', 'coverage', 'target', '_build']);
const VENDOR_DIRS = new Set([
  'vendor',
  'vendored',
  'third_party',
  'thirdparty',
  'external',
  '_vendor',
]);
const META_DIRS = new Set([
  '.github',
  '.gitlab',
  '.circleci',
  '.husky',
  '.devcontainer',
  '.vscode',
]);

/** Program source by extension (configuration, data and prose are not). */
const SOURCE_EXTENSIONS = new Set(
  (
    'js jsx mjs cjs ts tsx mts cts vue svelte py pyi pyx pxd go rs java scala groovy kt kts cs ' +
    'fs rb php swift c h cc cpp cxx hpp hh m mm ex exs erl lua pl pm r jl dart zig nim hs ml ' +
    'clj elm sql sh bash zsh ps1 css scss less sass html'
  ).split(' '),
);
const DOC_EXTENSIONS = new Set(['md', 'mdx', 'markdown', 'rst', 'txt', 'adoc', 'asciidoc', 'rdoc']);
const CHANGELOG =
  /^(changelog|changes|history|news|releases?|release[-_]notes|whatsnew)([-_.].*)?$/i;
const PROSE_NAMES =
  /^(readme|license|licence|copying|authors|contributors|contributing|code_of_conduct|security|support|funding|maintainers|notice)([-_.].*)?$/i;
const CONFIG_NAMES =
  /^(package\.json|tsconfig.*\.json|setup\.cfg|setup\.py|pyproject\.toml|tox\.ini|noxfile\.py|conftest\.py|makefile|dockerfile|go\.mod|cargo\.toml|\..*rc(\.\w+)?|.*\.config\.[cm]?[jt]s|.*\.(ya?ml|toml|ini|cfg|lock|json))$/i;

const TOOLING =
  /(^|[.-])(conf|config)\.[cm]?[jt]s$|^(gulpfile|gruntfile|jakefile|webpack|rollup|vite|babel|jest|karma|vitest|eslint|prettier|esbuild|tsup)([.-].*)?\.[cm]?[jt]s$/;

const WORKSPACE_DIRS = new Set(['packages', 'apps', 'libs', 'modules', 'crates', 'plugins']);

/**
 * A folder of the project root, or of a workspace package (`packages/x/dist/`): `build/` or
 * `examples/` deep inside source (`pip/_internal/operations/build/`, `src/demo/`) is source.
 */
function atRoot(dirs: readonly string[], names: ReadonlySet<string>): boolean {
  if (names.has(dirs[0] ?? '')) return true;
  return WORKSPACE_DIRS.has(dirs[0] ?? '') && names.has(dirs[2] ?? '');
}

/**
 * A library's own package named `test` (`django/test/client.py`: helpers it ships to users), not
 * a folder of tests: nested, and the file is not itself named like a test.
 */
function libraryTestPackage(dirs: readonly string[], i: number, name: string): boolean {
  return (
    i > 0 &&
    dirs[i] === 'test' &&
    /\.py$/.test(name) &&
    !/^(test_|conftest)|_test\.py$|^tests?\.py$/.test(name)
  );
}

const extensionOf = (name: string): string =>
  name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';

/** What the repository's other paths say about a path's kind. */
export interface RepoLayout {
  /**
   * `scripts/__init__.py` exists: `scripts/` is a Python package the project imports (faceswap's
   * `scripts/convert.py`), its code, not its build tooling.
   */
  scriptsPackage: boolean;
}

export const repoLayout = (paths: readonly string[]): RepoLayout => ({
  scriptsPackage: paths.includes('scripts/__init__.py'),
});

export function classifyPath(
  path: string,
  layout: RepoLayout = { scriptsPackage: false },
): PathKind {
  const segments = path.split('/');
  const name = segments[segments.length - 1] ?? '';
  const dirs = segments.slice(0, -1).map((s) => s.toLowerCase());
  const lower = name.toLowerCase();
  const ext = extensionOf(name);
  if (dirs.some((d) => META_DIRS.has(d))) return 'meta';
  if (dirs.some((d) => VENDOR_DIRS.has(d) || d === 'node_modules' || d === 'site-packages'))
    return 'vendored';
  if (atRoot(dirs, BUILD_DIRS)) return 'build';
  if (
    /\.min\.(js|css)$|[.-]bundle\.js$|\.generated\.|_pb2(_grpc)?\.py$|\.pb(\.gw)?\.go$/i.test(lower)
  )
    return 'build';
  if (/_generated\.|^generated[-_]|\.g\.(dart|cs)$/i.test(lower)) return 'build';
  if (
    dirs.some((d, i) => TEST_DIRS.has(d) && !libraryTestPackage(dirs, i, lower)) ||
    /\.(test|spec|e2e|stories)\.[cm]?[jt]sx?$/i.test(lower) ||
    /_test\.(go|py|rb|exs)$/.test(lower) ||
    /^test_.*\.py$/.test(lower) ||
    /^conftest\.py$/.test(lower) ||
    /Tests?\.(java|kt|cs|swift)$/.test(name)
  )
    return 'test';
  if (CHANGELOG.test(name) && !SOURCE_EXTENSIONS.has(ext)) return 'changelog';
  if (atRoot(dirs, EXAMPLE_DIRS)) return 'example';
  if (dirs.some((d) => DOC_DIRS.has(d))) return 'docs';
  if (DOC_EXTENSIONS.has(ext) || (PROSE_NAMES.test(name) && !SOURCE_EXTENSIONS.has(ext)))
    return 'docs';
  if (CONFIG_NAMES.test(lower) || (dirs.length === 0 && /^\./.test(name))) return 'config';
  // Build and release tooling: `scripts/`, `karma.conf.js`, `gulpfile.js`, `webpack.config.js`.
  const scripts = dirs[0] === 'scripts' && !(layout.scriptsPackage && ext === 'py');
  if (scripts || TOOLING.test(lower)) return 'config';
  // Type declarations and stubs: where a typing bug is fixed, not a behaviour bug.
  if (/\.d\.[cm]?ts$/.test(lower)) return 'declarations';
  if (SOURCE_EXTENSIONS.has(ext)) return 'source';
  return 'config';
}

/**
 * Whether an issue may be about a translation (a wrong or missing string in some language, a
 * catalog that does not compile): then the gettext catalogs are read (`readTranslations`).
 * Generous on purpose: a wrong "yes" costs reading time, a wrong "no" hides the file.
 */
export function issueIsAboutTranslations(text: string): boolean {
  return /\b(translat\w*|locali[sz]\w*|l10n|i18n|\w*gettext\w*|msgid|msgstr|makemessages|compilemessages|transifex|weblate|crowdin|language (file|pack|catalog)s?)\b|\w\.pot?\b/i.test(
    text,
  );
}

/**
 * Which kinds the issue is itself about ("the README says…", "a flaky test", "the dist bundle"):
 * those are not demoted. Explicitly named files are never demoted either (`ranking/demotion.ts`).
 */
export function kindsTheIssueIsAbout(text: string): Set<PathKind> {
  const t = text.toLowerCase();
  const kinds = new Set<PathKind>(['source']);
  if (
    /\b(docs|documentation|documented|docstrings?|typos?|readme\.(md|rst|txt)|in the readme|the readme (says|states|mentions|shows)|tutorial|man ?page)\b/.test(
      t,
    )
  )
    kinds.add('docs');
  if (/\b(changelog|release notes|changes\.(md|rst|txt)|history\.md)\b/.test(t))
    kinds.add('changelog');
  if (
    /\b(examples?|samples?|demo)\b/.test(t) &&
    /\b(examples?|samples?|demo)\/|\bthe (examples?|samples?|demo)\b/.test(t)
  )
    kinds.add('example');
  if (
    /\b(flaky|test suite|tests? (fails?|failing|is failing|are failing|broken|coverage)|failing tests?|(add|missing|write|fix) (a |the )?(unit )?tests?|test helpers?|test fixtures?)\b/.test(
      t,
    )
  )
    kinds.add('test');
  if (
    /\b(workflows?|github actions|ci|issue templates?|pull request templates?|dependabot)\b/.test(t)
  )
    kinds.add('meta');
  if (/\b(dist|bundle[ds]?|minified|umd|build output|vendored|generated code)\b/.test(t)) {
    kinds.add('build');
    kinds.add('vendored');
  }
  if (
    /\b(package\.json|tsconfig|pyproject|setup\.cfg|setup\.py|config(uration)? file|dependenc(y|ies)|go\.mod)\b/.test(
      t,
    )
  )
    kinds.add('config');
  if (
    /\b(typings?|typescript|d\.ts|type definitions?|type declarations?|types\/|tsc|stubs?|mypy|pyright)\b/.test(
      t,
    )
  )
    kinds.add('declarations');
  return kinds;
}

/**
 * Score factor for a kind the issue is not about. Tests stay near (they are useful context, listed
 * after the code they exercise); docs, examples and build output drop well below source.
 */
export const DEMOTION: Record<PathKind, number> = {
  source: 1,
  test: 0.3,
  docs: 0.2,
  changelog: 0.1,
  example: 0.25,
  meta: 0.05,
  build: 0.05,
  vendored: 0.1,
  config: 0.3,
  declarations: 0.5,
};

/** Factor when the issue is about the kind: still below source for equal evidence, but close. */
export const ABOUT_FACTOR: Record<PathKind, number> = {
  source: 1,
  test: 0.7,
  docs: 0.6,
  changelog: 0.6,
  example: 0.7,
  meta: 0.6,
  build: 0.5,
  vendored: 0.5,
  config: 0.7,
  declarations: 1,
};
