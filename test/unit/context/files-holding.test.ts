/**
 * `filesHolding` answers "which files hold this name" for dozens of names in one scan per file
 * (issue #18: `autofix context` in under a second). It must say what `content.includes(name)`
 * says for every name, including names inside, overlapping or repeating other names.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { filesHolding } from '../../../src/context/grep-code.js';

const byIncludes = (files: { path: string; content: string }[], names: string[]) =>
  new Map(names.map((n) => [n, files.filter((f) => f.content.includes(n)).map((f) => f.path)]));
const paths = (m: Map<string, { path: string }[]>) =>
  new Map([...m].map(([n, fs]) => [n, fs.map((f) => f.path)]));

describe('filesHolding', () => {
  it('finds names inside, across the end of, and equal to other names', () => {
    const files = [
      { path: 'a.ts', content: 'abcde' }, // `abc` matches first; `cde` overlaps its end
      { path: 'b.ts', content: 'parseConfigFile()' }, // `parse`, `Config` inside the longer
      { path: 'c.ts', content: 'x.parse(y) // Config' },
      { path: 'd.ts', content: 'nothing here' },
      { path: 'e.ts', content: 'a.b(c) [x] $y' }, // pattern characters in names
    ];
    const names = ['abc', 'cde', 'parse', 'Config', 'parseConfigFile', 'bcd', 'a.b(c)', '$y', 'zz'];
    expect(paths(filesHolding(files, names))).toEqual(byIncludes(files, names));
  });

  it('agrees with includes over this repository own source for names it uses', async () => {
    const dir = join(process.cwd(), 'src', 'context');
    const files = await Promise.all(
      (await readdir(dir))
        .filter((f) => f.endsWith('.ts'))
        .map(async (f) => ({ path: f, content: await readFile(join(dir, f), 'utf8') })),
    );
    const names = [
      'rankFiles',
      'rank',
      'Files',
      'termCounts',
      'terms',
      'count',
      'import',
      'importGraph',
      'graph',
      'focus',
      'split',
      'Words',
      'splitWords',
      'path',
      'at',
      'RegExp',
      'missingName',
    ];
    const found = paths(filesHolding(files, names));
    expect(found).toEqual(byIncludes(files, names));
    expect(found.get('rankFiles')?.length).toBeGreaterThan(1);
    expect(found.get('missingName')).toEqual([]);
  });
});
