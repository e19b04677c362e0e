/**
 * The code agent's tools over a real repository (real git, the one reader): what each answers,
 * and that none reads past the rules — links (to the worker's environment, its HOME, outside),
 * `..`, a FIFO, a 2 GB file, what git ignores, `.env` files — whatever the model asks.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { callTool } from '../../../src/tools/call-tool.js';
import { TOOLS, toolSpecs } from '../../../src/tools/registry.js';
import { createToolWorkspace, type ToolWorkspace } from '../../../src/tools/tool-workspace.js';
import {
  createHostileWorld,
  COMMITTABLE_KINDS,
  leakedCanaries,
  type HostileWorld,
} from '../../helpers/hostile-entries.js';
import { createRepo, type TestRepo } from '../../helpers/repo-builder.js';

let repo: TestRepo;
let world: HostileWorld;
let ws: ToolWorkspace;

const LONG = Array.from({ length: 900 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

beforeEach(() => {
  world = createHostileWorld();
  repo = createRepo({
    prefix: 'autofix-tools-',
    files: {
      'src/math.js': 'export function add(a, b) {\n  return a - b;\n}\n',
      'src/use.js': "import { add } from './math.js';\nexport const five = add(2, 3);\n",
      'test/math.test.js': "import { add } from '../src/math.js';\nadd(1, 1);\n",
      'docs/long.txt': LONG,
      '.env': 'API_TOKEN=from-the-env-file-123\n',
      '.gitignore': 'build/\n',
    },
  });
  COMMITTABLE_KINDS.forEach((kind, i) => world.plant(repo.dir, `links/l${i}.js`, kind));
  repo.git('add', '-A');
  repo.commit('links');
  writeFileSync(join(repo.dir, 'untracked.js'), 'export const hidden = 1;\n');
  execFileSync('mkdir', ['-p', join(repo.dir, 'build')]);
  writeFileSync(join(repo.dir, 'build', 'out.js'), 'export const built = add;\n');
  ws = createToolWorkspace({ worktree: repo.dir, gitDir: join(repo.dir, '.git') });
});
afterEach(() => {
  repo.cleanup();
  world.cleanup();
});

const call = (name: string, args: unknown) =>
  callTool({ id: 'c1', name, arguments: JSON.stringify(args) }, ws, TOOLS);

describe('read_file', () => {
  it('shows a file with line numbers, and a long one in parts', async () => {
    expect((await call('read_file', { path: 'src/math.js' })).text).toBe(
      'src/math.js: lines 1-3 of 3\n1| export function add(a, b) {\n2|   return a - b;\n3| }',
    );
    const part = await call('read_file', { path: 'docs/long.txt' });
    expect(part.text.split('\n')[0]).toBe(
      'docs/long.txt: lines 1-400 of 900 (ask for start_line 401 to read on)',
    );
    const later = await call('read_file', { path: 'docs/long.txt', start_line: 850 });
    expect(later.text.split('\n').slice(0, 2)).toEqual([
      'docs/long.txt: lines 850-900 of 900',
      '850| line 850',
    ]);
    expect(later.summary).toBe('read docs/long.txt:850-900');
  });

  it.each([
    ...COMMITTABLE_KINDS.map((_, i) => `links/l${i}.js`),
    '../../etc/passwd',
    '/etc/passwd',
    '.env',
    'untracked.js',
    'build/out.js',
    '.git/config',
  ])('refuses %s and shows nothing of it', async (path) => {
    const out = await call('read_file', { path });
    expect(out.error).toBe(true);
    expect(leakedCanaries(out.text, world)).toEqual([]);
    expect(out.text).not.toContain('from-the-env-file');
    expect(out.text).not.toContain('hidden');
  });

  it('refuses a tracked file that setup turned into a FIFO or a 2 GB file, without hanging', async () => {
    execFileSync('rm', [join(repo.dir, 'src/use.js'), join(repo.dir, 'test/math.test.js')]);
    world.plant(repo.dir, 'src/use.js', 'fifo');
    world.plant(repo.dir, 'test/math.test.js', 'sparse-2g');
    expect(await call('read_file', { path: 'src/use.js' })).toMatchObject({ error: true });
    expect((await call('read_file', { path: 'test/math.test.js' })).text).toMatch(/too large/);
    expect((await call('search', { pattern: 'add' })).text).toContain('src/math.js:1:');
  });
});

describe('search, list_files, find_definition, find_references', () => {
  it('finds text and regular expressions, in the files a glob names', async () => {
    const out = await call('search', { pattern: 'add(' });
    expect(out.text).toBe(
      [
        '3 hits in 3 files',
        'src/math.js:1: export function add(a, b) {',
        'src/use.js:2: export const five = add(2, 3);',
        'test/math.test.js:2: add(1, 1);',
      ].join('\n'),
    );
    const regex = await call('search', { pattern: 'add\\(\\d', regex: true, path_glob: 'test/**' });
    expect(regex.text).toBe('1 hits in 1 files in test/**\ntest/math.test.js:2: add(1, 1);');
    expect((await call('search', { pattern: 'ADD', case_sensitive: false })).text).toMatch(
      /^5 hits/,
    );
  });

  it('never searches what it may not read (links, .env, ignored and untracked files)', async () => {
    const out = await call('search', { pattern: 'CANARY' });
    expect(out.text).toMatch(/^no match/);
    expect((await call('search', { pattern: 'from-the-env-file' })).text).toMatch(/^no match/);
    expect((await call('search', { pattern: 'built' })).text).toMatch(/^no match/);
    // Nor does find_definition list, as a definition or a use, what it may not read.
    for (const symbol of ['CANARY', 'API_TOKEN', 'hidden', 'built']) {
      const found = await call('find_definition', { symbol });
      expect(found.text).toBe(
        `no definition of \`${symbol}\` found\n(nor any use of the name: try search for a part of it)`,
      );
      expect(leakedCanaries(found.text, world)).toEqual([]);
    }
  });

  it('runs a pathological regular expression in linear time, and says when one is invalid', async () => {
    writeFileSync(join(repo.dir, 'src/math.js'), `${'a'.repeat(30_000)}!\n`);
    ws.changed(['src/math.js']);
    expect((await call('search', { pattern: '(a+)+$', regex: true })).text).toMatch(/^no match/);
    const bad = await call('search', { pattern: '(unclosed', regex: true });
    expect(bad).toMatchObject({ error: true });
    expect(bad.text).toContain('not a valid regular expression');
  });

  it('lists files to a depth, folders counted', async () => {
    expect((await call('list_files', { depth: 1 })).text).toBe(
      '11 files under `.`:\n.gitignore\ndocs/ (1 files)\nlinks/ (6 files)\nsrc/ (2 files)\ntest/ (1 files)',
    );
  });

  it('finds where a name is defined and where it is used', async () => {
    expect((await call('find_definition', { symbol: 'math.add' })).text).toBe(
      [
        '`add` is defined in 1 file(s):',
        'src/math.js:1: export function add(a, b) {',
        // Its callers, one line a file: where a model reads after the definition.
        '`add` is used in 2 other file(s), the most relevant first:',
        "src/use.js:1: import { add } from './math.js';",
        "test/math.test.js:1: import { add } from '../src/math.js';",
      ].join('\n'),
    );
    expect((await call('find_references', { symbol: 'add' })).text).toBe(
      [
        '4 uses of `add`:',
        "src/use.js:1: import { add } from './math.js';",
        'src/use.js:2: export const five = add(2, 3);',
        "test/math.test.js:1: import { add } from '../src/math.js';",
        'test/math.test.js:2: add(1, 1);',
      ].join('\n'),
    );
  });
});

describe("the run's ranking orders every lookup", () => {
  it('lists the files the ranking scored first, most relevant first, then the rest by path', async () => {
    ws = createToolWorkspace(
      { worktree: repo.dir, gitDir: join(repo.dir, '.git') },
      // A ranked path the tools may not read (a link) stays out; unranked files follow by path.
      { ranked: ['test/math.test.js', 'links/l0.js', 'src/use.js'] },
    );
    expect((await call('find_references', { symbol: 'add' })).text.split('\n').slice(1)).toEqual([
      "test/math.test.js:1: import { add } from '../src/math.js';",
      'test/math.test.js:2: add(1, 1);',
      "src/use.js:1: import { add } from './math.js';",
      'src/use.js:2: export const five = add(2, 3);',
    ]);
    const search = await call('search', { pattern: 'add' });
    expect(search.text.split('\n').map((l) => l.split(':')[0])).toEqual([
      '5 hits in 3 files',
      'test/math.test.js',
      'test/math.test.js',
      'src/use.js',
      'src/use.js',
      'src/math.js',
    ]);
    const paths = (await ws.texts()).map((f) => f.path);
    expect(paths.slice(0, 3)).toEqual(['test/math.test.js', 'src/use.js', '.gitignore']);
    expect(paths).not.toContain('links/l0.js');
  });

  it('over the cap, shows a few hits a file and names the files in that order and by hits', async () => {
    ws = createToolWorkspace(
      { worktree: repo.dir, gitDir: join(repo.dir, '.git') },
      { ranked: ['src/math.js'], limits: { hitsPerFile: 1 } },
    );
    expect((await call('search', { pattern: 'add' })).text.split('\n')).toEqual([
      '5 hits in 3 files (3 shown, at most 1 a file; narrow with path_glob)',
      'files: src/math.js (1), src/use.js (2), test/math.test.js (2)',
      'most hits: src/use.js (2), test/math.test.js (2), src/math.js (1)',
      'src/math.js:1: export function add(a, b) {',
      "src/use.js:1: import { add } from './math.js';",
      "test/math.test.js:1: import { add } from '../src/math.js';",
    ]);
    ws = createToolWorkspace(
      { worktree: repo.dir, gitDir: join(repo.dir, '.git') },
      { limits: { hits: 2 } },
    );
    expect((await call('search', { pattern: 'line' })).text.split('\n')[0]).toBe(
      '900 hits in 1 files (2 shown, at most 5 a file; narrow with path_glob)',
    );
  });

  it('find_definition names the files of a folder named like the symbol', async () => {
    const text = (await call('find_definition', { symbol: 'test' })).text;
    expect(text).toBe(
      ['files and folders named `test`:', 'test/math.test.js:1: (in a folder named `test`)'].join(
        '\n',
      ),
    );
  });
});

describe('lookups name the files to read next', () => {
  let other: TestRepo;
  const CALLERS = Object.fromEntries(
    Array.from({ length: 10 }, (_, i) => [`callers/c${i}.go`, 'var _ = stats.InPayload{}\n']),
  );
  beforeEach(() => {
    other = createRepo({
      prefix: 'autofix-lookups-',
      files: {
        'stats/stats.go': 'package stats\n\ntype InPayload struct {\n\tWireLength int\n}\n',
        'stream.go': 'p := &stats.InPayload{WireLength: n}\n',
        'server.go': 'p := &stats.InPayload{}\n',
        ...CALLERS,
        'extractor/wat.py': "class WatIE:\n    _NAME = 'TF1 videos'\n",
        'extractor/tf1.py': 'class TF1IE:\n    pass\n',
      },
    });
    ws = createToolWorkspace(
      { worktree: other.dir, gitDir: join(other.dir, '.git') },
      { ranked: ['server.go', 'extractor/wat.py', 'stream.go'] },
    );
  });
  afterEach(() => other.cleanup());

  it('find_definition lists the first files that use the name, the most relevant first', async () => {
    const lines = (await call('find_definition', { symbol: 'stats.InPayload' })).text.split('\n');
    expect(lines.slice(0, 5)).toEqual([
      '`InPayload` is defined in 1 file(s):',
      'stats/stats.go:3: type InPayload struct {',
      '`InPayload` is used in 12 other file(s), the most relevant first (the first 8):',
      'server.go:1: p := &stats.InPayload{}',
      'stream.go:1: p := &stats.InPayload{WireLength: n}',
    ]);
    expect(lines.slice(5)).toEqual(
      [0, 1, 2, 3, 4, 5].map((n) => `callers/c${n}.go:1: var _ = stats.InPayload{}`),
    );
  });

  it('find_definition of a name no pattern sees defined answers where it occurs', async () => {
    expect((await call('find_definition', { symbol: 'WireLength' })).text).toBe(
      [
        'no definition of `WireLength` found',
        '`WireLength` is used in 2 file(s), the most relevant first:',
        'stream.go:1: p := &stats.InPayload{WireLength: n}',
        'stats/stats.go:4: WireLength int',
      ].join('\n'),
    );
    expect((await call('find_definition', { symbol: 'Nowhere' })).text).toBe(
      'no definition of `Nowhere` found\n(nor any use of the name: try search for a part of it)',
    );
  });

  it('search lists the files whose path it matches first, then the ranking order', async () => {
    const found = await call('search', { pattern: 'TF1' });
    expect(found.text.split('\n')).toEqual([
      '2 hits in 2 files',
      'extractor/tf1.py:1: class TF1IE:',
      "extractor/wat.py:2: _NAME = 'TF1 videos'",
    ]);
    // Too short to say anything by matching a path: the ranking's order alone.
    const short = await call('search', { pattern: 'p', path_glob: '*.go', regex: false });
    expect(short.text.split('\n')[1]).toMatch(/^server\.go:/);
  });
});

describe('callTool: a bad call is an answer, never a crash', () => {
  it.each([
    [
      { id: 'x', name: 'rm_rf', arguments: '{}' },
      /there is no tool `rm_rf`; the tools are: read_file, search/,
    ],
    [{ id: 'x', name: 'read_file', arguments: 'path=src/a.js' }, /not JSON/],
    [{ id: 'x', name: 'read_file', arguments: '{"file": "a"}' }, /do not fit read_file/],
    [{ id: 'x', name: 'run_tests', arguments: '{}' }, /not available/],
  ])('%j', async (c, message) => {
    const out = await callTool(c, ws, TOOLS);
    expect(out.error).toBe(true);
    expect(out.text).toMatch(message);
  });

  it('ends the loop with finish', async () => {
    expect(await call('finish', { summary: 'Fixed add.' })).toMatchObject({
      finish: { summary: 'Fixed add.' },
    });
  });
});

describe('toolSpecs', () => {
  it('gives each tool a JSON Schema object servers take', () => {
    const specs = toolSpecs();
    expect(specs.map((s) => s.name)).toEqual([
      'read_file',
      'search',
      'list_files',
      'find_definition',
      'find_references',
      'run_tests',
      'propose_edit',
      'finish',
    ]);
    for (const s of specs) {
      expect(s.parameters).toMatchObject({ type: 'object', additionalProperties: false });
      expect(JSON.stringify(s.parameters)).not.toContain('$schema');
      expect(JSON.stringify(s.parameters)).not.toContain('9007199254740991');
    }
  });
});
