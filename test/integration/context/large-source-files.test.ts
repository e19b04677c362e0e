/**
 * The central modules of large projects are large (mypy's `checker.py` is 445 KiB, matplotlib's
 * `axes/_axes.py` and xarray's `dataset.py` over 300 KiB). They used to be left out of the map as
 * too large, so an issue whose traceback ran through them could not be localized, and no fix
 * could see them. Code is now read up to 1 MiB; prose and data keep the 256 KiB limit.
 */
import { explainContext } from '../../../src/context/explain-context.js';
import { buildRepoMap, loadFilesSync } from '../../../src/context/build-repo-map.js';
import { listRepoFiles } from '../../../src/context/list-repo-files.js';
import { createRepo, type TestRepo } from '../../helpers/repo-builder.js';

/** A Python module of about `kib` KiB: many small functions, `check_call` among them. */
function bigModule(kib: number, special: { at: number; body: string }): string {
  const lines: string[] = ['"""The type checker."""', 'from pkg.nodes import Node', ''];
  for (let i = 0; Buffer.byteLength(lines.join('\n')) < kib * 1024; i++) {
    if (i === special.at) lines.push(special.body);
    lines.push(
      `def visit_node_${i}(node: Node) -> int:`,
      `    """Visit node number ${i} and return its weight."""`,
      `    weight = node.weight * ${i} + len(node.children)`,
      '    return weight',
      '',
    );
  }
  return `${lines.join('\n')}\n`;
}

const CHECK_CALL = [
  'def check_call(callee, args):',
  '    signature = callee.signature',
  '    return signature.ret_type.accept(args)',
  '',
].join('\n');

let repo: TestRepo;
let checkCallLine: number;
beforeAll(() => {
  const checker = bigModule(420, { at: 1500, body: CHECK_CALL });
  checkCallLine = checker.split('\n').indexOf('def check_call(callee, args):') + 1;
  repo = createRepo({
    files: {
      'pkg/__init__.py': '',
      'pkg/nodes.py': 'class Node:\n    weight = 1\n    children = []\n',
      'pkg/checker.py': checker,
      'pkg/tables.py': bigModule(1100, { at: 10, body: '' }),
      'pkg/main.py':
        'from pkg.checker import check_call\n\ndef main():\n    check_call(None, [])\n',
      'docs/changes.md': `# Changes\n${'- check_call returns the wrong type\n'.repeat(9000)}`,
      'data/weights.csv': 'node,weight\n'.repeat(30_000),
      // Listed before the code: prose that a total limit must drop before any module.
      ...Object.fromEntries(
        Array.from({ length: 70 }, (_, i) => [`a-notes/note-${i}.md`, `${'note '.repeat(2048)}\n`]),
      ),
    },
  });
});
afterAll(() => repo.cleanup());

describe('large source files', () => {
  it('reads code up to 1 MiB and leaves out larger code, prose and data over 256 KiB', async () => {
    const map = await buildRepoMap(repo.dir);
    const read = map.files.map((f) => f.path);
    expect(read).toContain('pkg/checker.py');
    expect(map.files.find((f) => f.path === 'pkg/checker.py')?.bytes).toBeGreaterThan(400 * 1024);
    const skipped = Object.fromEntries(map.skipped.map((s) => [s.path, s.reason]));
    expect(skipped).toEqual({
      'data/weights.csv': 'too-large',
      'docs/changes.md': 'too-large',
      'pkg/tables.py': 'too-large',
    });
    // The limits are settings, and the reading threads (`loadFilesSync`) apply the same ones.
    const small = await buildRepoMap(repo.dir, { maxCodeBytes: 100 * 1024 });
    expect(small.skipped.map((s) => s.path)).toContain('pkg/checker.py');
    const threads = new Map(loadFilesSync(repo.dir, ['pkg/checker.py', 'docs/changes.md']));
    expect('file' in threads.get('pkg/checker.py')!).toBe(true);
    expect(threads.get('docs/changes.md')).toEqual({
      skipped: expect.objectContaining({ reason: 'too-large' }) as unknown,
    });
  });

  it('reads code before prose and data, so a total limit never leaves out a module', async () => {
    const map = await buildRepoMap(repo.dir, { maxTotalBytes: 600 * 1024 });
    const paths = map.files.map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining(['pkg/checker.py', 'pkg/main.py', 'pkg/nodes.py']),
    );
    const limited = map.skipped.filter((s) => s.reason === 'limit').map((s) => s.path);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited.filter((p) => p.startsWith('pkg/'))).toEqual([]);
    expect(limited).toContain('a-notes/note-69.md');
    // The map keeps the listing's order.
    expect(paths).toEqual([...paths].sort());
    // A reading thread stops at the same limit, code first, and the map is the same with its
    // share as without.
    const listed = await listRepoFiles(repo.dir);
    const share = loadFilesSync(repo.dir, listed.paths, { maxTotalBytes: 600 * 1024 });
    expect(share.length).toBeLessThan(listed.paths.length);
    expect(share.slice(0, 5).map(([p]) => p)).toEqual([
      'pkg/__init__.py',
      'pkg/checker.py',
      'pkg/main.py',
      'pkg/nodes.py',
      'pkg/tables.py',
    ]);
    const viaShare = await buildRepoMap(repo.dir, {
      maxTotalBytes: 600 * 1024,
      readSync: true,
      preloaded: new Map(share),
    });
    expect(viaShare).toEqual(map);
  });

  it('ranks a large module a traceback runs through first and shows the lines it names', async () => {
    const issue = [
      'Crash in check_call when the callee has no signature',
      '',
      '```',
      'Traceback (most recent call last):',
      '  File "pkg/main.py", line 4, in main',
      `  File "pkg/checker.py", line ${checkCallLine + 2}, in check_call`,
      "AttributeError: 'NoneType' object has no attribute 'ret_type'",
      '```',
    ].join('\n');
    const report = await explainContext(repo.dir, issue, { budget: 6_000, top: 5 });
    expect(report.ranking[0]?.path).toBe('pkg/checker.py');
    expect(report.ranking[0]?.reasons[0]).toMatch(/^named in a stack trace, innermost frame/);
    expect(report.ranking[0]?.inContext).toBe('cut');
    // The cut keeps the frame's line and the definition around it, within the budget.
    expect(report.context.code.text).toContain('    return signature.ret_type.accept(args)');
    expect(report.context.code.text).toContain('def check_call(callee, args):');
    expect(report.tokens).toBeLessThanOrEqual(6_000);
  });
});
