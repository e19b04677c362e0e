import { classifyPath, kindsTheIssueIsAbout } from '../../../src/context/classify-path.js';
import { filesForDotted, filesNamed, importGraph } from '../../../src/context/code-graph.js';
import { extractIssueRefs } from '../../../src/context/extract-issue-refs.js';
import {
  findDefinitions,
  findMessage,
  findOption,
  messageFragments,
} from '../../../src/context/grep-code.js';

describe('classifyPath', () => {
  it.each([
    ['src/index.js', 'source'],
    ['lib/adapters/http.js', 'source'],
    ['requests/models.py', 'source'],
    ['test/parse.test.js', 'test'],
    ['pkg/server_test.go', 'test'],
    ['tests/test_models.py', 'test'],
    ['README.md', 'docs'],
    ['docs/pt-br/README-pt-br.md', 'docs'],
    ['docs/conf.py', 'docs'],
    ['CHANGELOG.md', 'changelog'],
    ['CHANGES', 'changelog'],
    ['examples/server/main.go', 'example'],
    ['.github/ISSUE_TEMPLATE/bug_report.md', 'meta'],
    ['.github/workflows/ci.yml', 'meta'],
    ['dist/axios.cjs', 'build'],
    ['build/index.js', 'build'],
    ['static/app.min.js', 'build'],
    ['api/v1/service.pb.go', 'build'],
    ['vendor/github.com/x/y.go', 'vendored'],
    ['package.json', 'config'],
    ['karma.sauce.conf.js', 'config'],
    ['setup.cfg', 'config'],
    ['types/index.d.ts', 'declarations'],
    // Folders named like build output, examples or tests deep inside a package are source.
    ['src/pip/_internal/operations/build/wheel.py', 'source'],
    ['src/demo/demo-llm.ts', 'source'],
    ['django/test/client.py', 'source'],
    ['numpy/testing/_private/utils.py', 'source'],
    ['numpy/core/tests/test_numeric.py', 'test'],
    ['django/test/test_client.py', 'test'],
    ['packages/insomnia/dist/index.js', 'build'],
  ])('%s is %s', (path, kind) => {
    expect(classifyPath(path)).toBe(kind);
  });

  it('says what the issue is about', () => {
    expect([...kindsTheIssueIsAbout('The format() result is wrong')]).toEqual(['source']);
    expect(kindsTheIssueIsAbout('The documentation of format is wrong').has('docs')).toBe(true);
    expect(kindsTheIssueIsAbout('Flaky test in CI').has('test')).toBe(true);
    expect(kindsTheIssueIsAbout('In Jest syntax: expect(x).toBe(1)').has('test')).toBe(false);
  });
});

describe('grep-exact lookups', () => {
  const files = [
    { path: 'a.js', content: 'const x = week()\nweek(1)\n' },
    { path: 'b.js', content: 'export default () => {\n  proto.week = function () {}\n}\n' },
    { path: 'c.py', content: 'class A:\n    def week(self):\n        pass\n' },
    { path: 'd.go', content: 'package d\n\nfunc (s *S) week() {}\n' },
    { path: 'e.js', content: 'module.exports.week = week\n' },
  ];

  it('finds definitions, not uses', () => {
    expect(findDefinitions(files, 'week')).toEqual([
      { path: 'b.js', line: 2 },
      { path: 'c.py', line: 2 },
      { path: 'd.go', line: 3 },
      { path: 'e.js', line: 1 },
    ]);
  });

  it('finds the literal part of a message whose values were filled in', () => {
    expect(messageFragments("Cannot read property 'x' of undefined at 12")).toEqual([
      'Cannot read property',
      'of undefined at',
    ]);
    const src = [{ path: 'm.py', content: 'raise KeyError(f"no such column {c} in table")\n' }];
    expect(findMessage(src, "no such column 'price' in table")).toEqual([
      { path: 'm.py', line: 1 },
    ]);
    expect(
      findOption([{ path: 'cli.js', content: "program.option('--dry-run')\n" }], '--dry-run'),
    ).toEqual([{ path: 'cli.js', line: 1 }]);
  });
});

describe('names, dotted paths and imports', () => {
  it('maps names to files and folders', () => {
    const paths = [
      'src/plugin/weekOfYear/index.js',
      'src/plugin/weekOfYear/util.js',
      'src/week.js',
    ];
    expect(filesNamed(paths, 'week_of_year').map((m) => [m.path, m.how])).toEqual([
      ['src/plugin/weekOfYear/index.js', 'directory'],
      ['src/plugin/weekOfYear/util.js', 'directory'],
    ]);
    expect(filesNamed(paths, 'WeekOfYear')[0]?.weight).toBeGreaterThan(
      filesNamed(paths, 'WeekOfYear')[1]?.weight ?? 1,
    );
    expect(
      filesForDotted(['src/pkg/sub/mod.py', 'src/pkg/__init__.py'], 'pkg.sub.mod.Klass'),
    ).toEqual(['src/pkg/sub/mod.py']);
  });

  it('resolves JavaScript, Python and Go imports inside the repository', () => {
    const graph = importGraph([
      { path: 'src/a.ts', content: "import { b } from './b.js'\nimport x from 'lodash'\n" },
      { path: 'src/b.ts', content: "const c = require('./c')\n" },
      { path: 'src/c/index.js', content: '' },
      { path: 'pkg/m.py', content: 'from .n import f\nimport pkg.o\n' },
      { path: 'pkg/n.py', content: '' },
      { path: 'pkg/o.py', content: '' },
      { path: 'go.mod', content: 'module example.com/app\n' },
      {
        path: 'cmd/main.go',
        content: 'package main\n\nimport (\n\t"fmt"\n\t"example.com/app/srv"\n)\n',
      },
      { path: 'srv/srv.go', content: 'package srv\n' },
    ]);
    expect(Object.fromEntries([...graph].map(([k, v]) => [k, [...v]]))).toEqual({
      'src/a.ts': ['src/b.ts'],
      'src/b.ts': ['src/c/index.js'],
      'pkg/m.py': ['pkg/n.py', 'pkg/o.py'],
      'cmd/main.go': ['srv/srv.go'],
    });
  });

  it('extracts options, messages, dotted names and part names from the issue', () => {
    const refs = extractIssueRefs(
      'The utc plugin fails with --strict on `dayjs.utc()`:\nRangeError: Invalid time value for the date given',
    );
    expect(refs.options).toEqual(['--strict']);
    expect(refs.messages).toEqual(['Invalid time value for the date given']);
    expect(refs.dotted).toEqual(['dayjs.utc']);
    expect(refs.names).toContain('utc');
  });
});
