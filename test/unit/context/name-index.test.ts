import { execFileSync } from 'node:child_process';
import { createRng } from '../../../bench/patch/prng.js';
import { createNameIndex, type NameMatch } from '../../../src/context/code-graph.js';

/** The first implementation: every path split and normalised for every name. */
function filesNamedByScan(paths: readonly string[], name: string): NameMatch[] {
  const normaliseName = (n: string): string => n.toLowerCase().replace(/[-_.\s]/g, '');
  const stemOf = (n: string): string => {
    const dot = n.indexOf('.', 1);
    return dot > 0 ? n.slice(0, dot) : n;
  };
  const INDEX_NAMES = new Set(['index', '__init__', 'mod', 'main', 'init']);
  const key = normaliseName(name);
  if (key.length < 3) return [];
  const out: NameMatch[] = [];
  const inDir = new Map<string, string[]>();
  for (const path of paths) {
    const segments = path.split('/');
    const file = segments[segments.length - 1] ?? '';
    if (normaliseName(stemOf(file)) === key) {
      out.push({ path, how: 'file', weight: 1 });
      continue;
    }
    for (let i = segments.length - 2; i >= 0; i--)
      if (normaliseName(segments[i] ?? '') === key) {
        const dir = segments.slice(0, i + 1).join('/');
        inDir.set(dir, [...(inDir.get(dir) ?? []), path]);
        break;
      }
  }
  for (const [dir, files] of inDir) {
    const dirName = dir.slice(dir.lastIndexOf('/') + 1);
    for (const path of files) {
      const rest = path.slice(dir.length + 1);
      const file = stemOf(rest);
      const entry =
        !rest.includes('/') &&
        (INDEX_NAMES.has(file.toLowerCase()) || normaliseName(file) === normaliseName(dirName));
      out.push({
        path,
        how: 'directory',
        weight: entry ? 0.9 : 0.5 / Math.max(1, Math.sqrt(files.length)),
        dir,
      });
    }
  }
  return out;
}

describe('createNameIndex', () => {
  it("finds what a scan of every path finds, in the same order, for this repository's names", () => {
    const paths = execFileSync('git', ['ls-files'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    const index = createNameIndex(paths);
    const names = new Set<string>();
    for (const p of paths)
      for (const segment of p.split('/')) {
        names.add(segment);
        names.add(segment.replace(/\..*$/, ''));
      }
    for (const extra of ['Context', 'RANK_FILES', 'rank-files', 'no-such-name', 'ab', 'a.b'])
      names.add(extra);
    let matched = 0;
    for (const name of names) {
      const want = filesNamedByScan(paths, name);
      expect(index.filesNamed(name)).toEqual(want);
      if (want.length > 0) matched++;
    }
    expect(matched).toBeGreaterThan(100);
  });

  it('agrees with the scan on generated trees: nested folders of one name, files named like folders', () => {
    const rng = createRng(7);
    const parts = [
      'week_of_year',
      'WeekOfYear',
      'week-of-year',
      'index.js',
      '__init__.py',
      'src',
      'lib',
      'a.b',
      'x',
    ];
    for (let round = 0; round < 200; round++) {
      const paths = Array.from({ length: rng.int(1, 40) }, () =>
        Array.from({ length: rng.int(1, 5) }, () => rng.pick(parts)).join('/'),
      );
      const index = createNameIndex(paths);
      for (const name of ['weekOfYear', 'src', 'lib', 'index', '__init__', 'ab', 'a.b'])
        expect(index.filesNamed(name)).toEqual(filesNamedByScan(paths, name));
    }
  });
});
