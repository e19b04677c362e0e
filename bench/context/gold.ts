/**
 * Pure helpers of the localization bench (`bench/context.ts`, `bench/context/build-instances.ts`):
 * which files a fix patch touches, which of them count as gold (non-test source the ranker could
 * have found at the base commit), and the any@k arithmetic.
 */

export type PatchFileStatus = 'modified' | 'added' | 'deleted' | 'renamed';

export interface PatchFile {
  /** The path at the base commit (the old side; for an added file, the new path). */
  path: string;
  status: PatchFileStatus;
}

/** Files of a `git diff` patch, in patch order, each once. */
export function patchFiles(patch: string): PatchFile[] {
  const out: PatchFile[] = [];
  let current: PatchFile | undefined;
  for (const line of patch.split('\n')) {
    const header = /^diff --git a\/(.+?) b\/(.+)$/.exec(line);
    if (header) {
      current = { path: header[1] ?? '', status: 'modified' };
      out.push(current);
      continue;
    }
    if (!current) continue;
    if (line.startsWith('new file mode')) current.status = 'added';
    else if (line.startsWith('deleted file mode')) current.status = 'deleted';
    else if (line.startsWith('rename from ')) {
      current.path = line.slice('rename from '.length);
      current.status = 'renamed';
    } else if (line === '--- /dev/null') current.status = 'added';
    else if (line.startsWith('@@')) current = undefined; // hunks: no more headers for this file
  }
  const seen = new Set<string>();
  return out.filter((f) => (seen.has(f.path) ? false : (seen.add(f.path), true)));
}

const TEST_DIRS = new Set([
  'test',
  'tests',
  '__tests__',
  '__test__',
  'spec',
  'specs',
  '__mocks__',
  'testdata',
  'fixtures',
  '__fixtures__',
  'e2e',
]);

/** A test, test data or test helper file. */
export function isTestPath(path: string): boolean {
  const segments = path.split('/');
  const name = segments[segments.length - 1] ?? '';
  if (segments.slice(0, -1).some((s) => TEST_DIRS.has(s.toLowerCase()))) return true;
  return (
    /\.(test|spec|e2e)\.[cm]?[jt]sx?$/i.test(name) ||
    /_test\.go$/.test(name) ||
    /^test_.*\.py$/.test(name) ||
    /_test\.py$/.test(name)
  );
}

/** Documentation, changelogs and other prose. */
export function isDocPath(path: string): boolean {
  const segments = path.split('/');
  const name = (segments[segments.length - 1] ?? '').toLowerCase();
  if (segments.slice(0, -1).some((s) => /^(docs?|documentation)$/i.test(s))) return true;
  if (/\.(md|mdx|markdown|rst|txt|adoc)$/.test(name)) return true;
  return (
    /^(changelog|changes|history|news|license|authors|contributors)([-_.].*)?$/.test(name) &&
    !isSourcePath(path)
  );
}

/** Program source by extension; configuration, lock files, scripts and dotfiles are not. */
const SOURCE_EXTENSIONS = new Set(
  (
    'js jsx mjs cjs ts tsx mts cts vue svelte go rs java kt kts scala groovy py pyi rb php cs ' +
    'swift c h cc cpp cxx hh hpp hxx m mm'
  ).split(' '),
);

export function isSourcePath(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const dot = name.lastIndexOf('.');
  return dot > 0 && SOURCE_EXTENSIONS.has(name.slice(dot + 1));
}

export type Exclusion = 'test' | 'doc' | 'not-source' | 'added';

/** One line of `bench/context/instances.jsonl`. */
export interface Instance {
  id: string;
  repo: string;
  language: string;
  pr: number;
  issues: number[];
  base: string;
  /** Title and body of each resolved issue, as the bot's `prepareContext` joins them. */
  issue: string;
  gold: string[];
  excluded: { path: string; reason: Exclusion | 'missing-at-base' }[];
  /** The collection the instance comes from (one table row each). */
  dataset: Dataset;
  source: string;
}

export type Dataset = 'multi-swe-bench' | 'swe-bench-dev' | 'mulocbench';

/** Why a changed file is not gold, or undefined when it is. */
export function exclusionOf(file: PatchFile): Exclusion | undefined {
  if (isTestPath(file.path)) return 'test';
  if (isDocPath(file.path)) return 'doc';
  if (!isSourcePath(file.path)) return 'not-source';
  // A file the fix creates does not exist at the base commit: no ranker can return it.
  if (file.status === 'added') return 'added';
  return undefined;
}

/** Gold files of a fix patch and the changed files left out (with the reason). */
export function goldOf(patch: string): {
  gold: string[];
  excluded: { path: string; reason: Exclusion }[];
} {
  return goldOfFiles(patchFiles(patch));
}

/** Gold files among a fix's changed files, and the files left out (with the reason). */
export function goldOfFiles(files: readonly PatchFile[]): {
  gold: string[];
  excluded: { path: string; reason: Exclusion }[];
} {
  const gold: string[] = [];
  const excluded: { path: string; reason: Exclusion }[] = [];
  for (const f of files) {
    const reason = exclusionOf(f);
    if (reason) excluded.push({ path: f.path, reason });
    else gold.push(f.path);
  }
  return { gold, excluded };
}

/** 1-based rank of the best-ranked gold file, or undefined when none is ranked. */
export function bestGoldRank(
  ranked: readonly string[],
  gold: readonly string[],
): number | undefined {
  const wanted = new Set(gold);
  const i = ranked.findIndex((p) => wanted.has(p));
  return i < 0 ? undefined : i + 1;
}

/** Share (0–1) of results whose best gold rank is ≤ k. */
export function anyAt(ranks: readonly (number | undefined)[], k: number): number {
  if (ranks.length === 0) return 0;
  return ranks.filter((r) => r !== undefined && r <= k).length / ranks.length;
}

/** Median (lower middle for an even count); 0 for no values. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
}
