import { rankFiles } from '../../../../src/context/rank-files.js';
import { parseChangedFiles } from '../../../../src/context/recent-changes.js';
import { WEIGHTS } from '../../../../src/context/ranking/weights.js';
import { mapOf } from '../map-of.js';

const noise = Object.fromEntries(
  Array.from({ length: 40 }, (_, i) => [
    `src/part${i}/worker${i}.ts`,
    `export function work${i}(job) {\n  return job.size * ${i};\n}\n`,
  ]),
);

/** The issue names `tokenize`; the registry and the constants hold none of its words. */
const files = {
  ...noise,
  'src/parser/tokenize.ts': 'export function tokenize(text) {\n  return text.split(SEP);\n}\n',
  'src/parser/constants.ts': 'export const SEP = ",";\n',
  'src/registry.ts': 'export const parts = [];\n',
  'test/parser.test.ts': 'it("splits", () => {});\n',
};
const issue = 'tokenize splits quoted fields\n\n`tokenize` breaks `"a,b"` in two.';
const BIG = Array.from({ length: 31 }, (_, i) => `src/part${i}/worker${i}.ts`);

const rankOf = (changes: string[][]) => {
  const ranking = rankFiles(mapOf(files, [], changes), issue);
  return {
    files: ranking.files,
    at: (path: string) => ranking.files.findIndex((f) => f.path === path),
    of: (path: string) => ranking.files.find((f) => f.path === path),
  };
};

describe('co-change evidence', () => {
  it('ranks the files that changed with the best file, the most often changed first, below it', () => {
    const r = rankOf([
      ['src/parser/tokenize.ts', 'src/parser/constants.ts'],
      ['src/parser/tokenize.ts', 'src/parser/constants.ts', 'test/parser.test.ts'],
      ['src/parser/tokenize.ts', 'src/registry.ts', 'src/part1/worker1.ts'],
      ['src/registry.ts'],
    ]);
    const best = r.of('src/parser/tokenize.ts')!;
    expect(r.at('src/parser/tokenize.ts')).toBe(0);
    expect(r.at('src/parser/constants.ts')).toBeGreaterThan(0);
    expect(r.at('src/parser/constants.ts')).toBeLessThan(r.at('src/registry.ts'));
    expect(r.of('src/parser/constants.ts')?.reasons).toContain(
      `changed with src/parser/tokenize.ts in 2 of the last 4 commits (+${(best.score * WEIGHTS.coChange).toFixed(2).replace(/\.?0+$/, '')})`,
    );
    // The most often changed file gets the whole share, never more: it orders, it does not lead.
    expect(r.of('src/parser/constants.ts')!.points.coChange).toBeCloseTo(
      best.score * WEIGHTS.coChange,
      1,
    );
    // A test changed with it counts as a test: demoted.
    const test = r.of('test/parser.test.ts')?.points.coChange ?? 0;
    expect(test).toBeLessThan(r.of('src/registry.ts')!.points.coChange!);
  });

  it('ranks nothing for files without history, or that changed only in a sweeping commit', () => {
    const none = rankOf([]);
    expect(none.at('src/parser/constants.ts')).toBe(-1);
    expect(none.files.some((f) => f.points.coChange !== undefined)).toBe(false);
    // A commit of more than 30 files (a rename, a formatting pass) says nothing.
    const sweep = rankOf([['src/parser/tokenize.ts', 'src/parser/constants.ts', ...BIG]]);
    expect(sweep.at('src/parser/constants.ts')).toBe(-1);
  });

  it('gives nothing to a path the history names that is not a file of the map', () => {
    const r = rankOf([['src/parser/tokenize.ts', 'src/removed.ts', '../outside.ts']]);
    expect(r.files.map((f) => f.path)).not.toEqual(
      expect.arrayContaining(['src/removed.ts', '../outside.ts']),
    );
  });
});

describe('parseChangedFiles', () => {
  it("reads git log's -z --name-only output, a path with spaces or a newline whole", () => {
    const out = '\x01\0\nsrc/a b.py\0docs/x.md\0\x01\0\nline\nbreak.py\0\x01\0\n';
    expect(parseChangedFiles(out)).toEqual([['src/a b.py', 'docs/x.md'], ['line\nbreak.py']]);
  });
});
