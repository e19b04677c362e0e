import {
  anyAt,
  bestGoldRank,
  goldOf,
  isDocPath,
  isTestPath,
  median,
  patchFiles,
} from '../../../bench/context/gold.js';

const PATCH = [
  'diff --git a/lib/utils.js b/lib/utils.js',
  'index 1..2 100644',
  '--- a/lib/utils.js',
  '+++ b/lib/utils.js',
  '@@ -1,1 +1,1 @@',
  '-diff --git a/not/a/header.js b/not/a/header.js',
  '+x',
  'diff --git a/lib/new.js b/lib/new.js',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/lib/new.js',
  '@@ -0,0 +1 @@',
  '+y',
  'diff --git a/old/name.go b/new/name.go',
  'similarity index 90%',
  'rename from old/name.go',
  'rename to new/name.go',
  'diff --git a/History.md b/History.md',
  '--- a/History.md',
  '+++ b/History.md',
  'diff --git a/src/a_test.go b/src/a_test.go',
  'diff --git a/go.sum b/go.sum',
  'diff --git a/types/index.d.ts b/types/index.d.ts',
  '',
].join('\n');

describe('bench:context gold files', () => {
  it('reads the files of a patch with their status, old path for renames', () => {
    expect(patchFiles(PATCH)).toEqual([
      { path: 'lib/utils.js', status: 'modified' },
      { path: 'lib/new.js', status: 'added' },
      { path: 'old/name.go', status: 'renamed' },
      { path: 'History.md', status: 'modified' },
      { path: 'src/a_test.go', status: 'modified' },
      { path: 'go.sum', status: 'modified' },
      { path: 'types/index.d.ts', status: 'modified' },
    ]);
  });

  it('keeps existing non-test source files as gold and says why the others are not', () => {
    expect(goldOf(PATCH)).toEqual({
      gold: ['lib/utils.js', 'old/name.go', 'types/index.d.ts'],
      excluded: [
        { path: 'lib/new.js', reason: 'added' },
        { path: 'History.md', reason: 'doc' },
        { path: 'src/a_test.go', reason: 'test' },
        { path: 'go.sum', reason: 'not-source' },
      ],
    });
  });

  it('tells tests and docs by path', () => {
    expect(isTestPath('test/unit/adapters.js')).toBe(true);
    expect(isTestPath('src/__tests__/x.ts')).toBe(true);
    expect(isTestPath('src/x.spec.tsx')).toBe(true);
    expect(isTestPath('internal/testdata/a.go')).toBe(true);
    expect(isTestPath('src/plugin/utc/index.js')).toBe(false);
    expect(isTestPath('src/attest.js')).toBe(false);
    expect(isDocPath('docs/en/I18n.md')).toBe(true);
    expect(isDocPath('CHANGELOG')).toBe(true);
    expect(isDocPath('src/changes.js')).toBe(false);
  });
});

describe('bench:context any@k', () => {
  it('takes the best-ranked gold file and counts shares', () => {
    expect(bestGoldRank(['a', 'b', 'c'], ['c', 'b'])).toBe(2);
    expect(bestGoldRank(['a'], ['z'])).toBeUndefined();
    const ranks = [1, 3, undefined, 11];
    expect(anyAt(ranks, 1)).toBe(0.25);
    expect(anyAt(ranks, 5)).toBe(0.5);
    expect(anyAt(ranks, 10)).toBe(0.5);
    expect(anyAt([], 5)).toBe(0);
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2);
    expect(median([])).toBe(0);
  });
});
