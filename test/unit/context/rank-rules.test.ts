/**
 * The maintainer's rules of the ranking (issue #18), one at a time, on small literal
 * repositories. Each test fails without its rule.
 */
import { rankFiles } from '../../../src/context/rank-files.js';
import { mapOf } from './map-of.js';

const order = (files: Record<string, string>, issue: string): string[] =>
  rankFiles(mapOf(files), issue).files.map((f) => f.path);
const reasonsOf = (files: Record<string, string>, issue: string, path: string): string[] =>
  rankFiles(mapOf(files), issue).files.find((f) => f.path === path)?.reasons ?? [];

const noise = Object.fromEntries(
  Array.from({ length: 30 }, (_, i) => [
    `src/module${i}/handler${i}.js`,
    `export function handle${i}(order) {\n  return order.total * ${i};\n}\n`,
  ]),
);

describe('ranking rules', () => {
  it('puts source above docs, changelogs, issue templates, tests and build output for a behaviour bug', () => {
    const words = 'the parser drops the timezone offset when formatting a date with a timezone';
    const files = {
      ...noise,
      'src/format.js': `export function format(date, timezone) {\n  // offset\n  return date;\n}\n`,
      'README.md': `# Formatting\n${words}\n${words}\n`,
      'docs/zh/README.md': `${words}\n${words}\n`,
      'CHANGELOG.md': `- ${words}\n`,
      '.github/ISSUE_TEMPLATE/bug.md': `Describe the bug: ${words}\n`,
      'test/format.test.js': `// ${words}\n// ${words}\nformat(date, timezone)\n`,
      'dist/lib.cjs': `function format(date, timezone){/* ${words} ${words} */}\n`,
    };
    const ranked = order(files, 'Formatting a date drops the timezone offset');
    expect(ranked[0]).toBe('src/format.js');
    expect(reasonsOf(files, 'Formatting drops the timezone offset', 'README.md')).toContain(
      'docs: demoted ×0.2',
    );
    expect(
      reasonsOf(files, 'Formatting drops the timezone offset', '.github/ISSUE_TEMPLATE/bug.md'),
    ).toContain('issue template/CI config: demoted ×0.05');
  });

  it('does not demote docs when the issue is about the documentation, nor a file it names', () => {
    const files = {
      ...noise,
      'src/format.js': 'export function format(date) {\n  return date;\n}\n',
      'docs/format.md': '# format\nThe format function pads the year.\nformat pads year\n',
    };
    expect(order(files, 'The documentation of format says it pads the year')[0]).toBe(
      'docs/format.md',
    );
    expect(order(files, 'docs/format.md is wrong about format')[0]).toBe('docs/format.md');
  });

  it('ranks the file that DEFINES a named symbol above files that only mention it', () => {
    const mentions = Object.fromEntries(
      Array.from({ length: 5 }, (_, i) => [
        `src/use${i}.js`,
        'const w = d.week()\nconst x = d.week() + d.week() // week week week\n',
      ]),
    );
    const files = {
      ...noise,
      ...mentions,
      'src/plugin/calendar/index.js':
        'export default (o, c) => {\n  const proto = c.prototype\n  proto.week = function (week = null) {\n    return 1\n  }\n}\n',
    };
    const ranking = rankFiles(mapOf(files), '`.week()` returns the wrong week number');
    expect(ranking.files[0]?.path).toBe('src/plugin/calendar/index.js');
    expect(ranking.files[0]?.reasons[0]).toBe('defines `week`');
    expect(ranking.files[0]?.focusLines).toEqual([3]);
  });

  it('finds Python and Go definitions of `Class.method` and `func`', () => {
    const files = {
      ...noise,
      'pkg/session.py': 'class Session:\n    def merge_environment(self, env):\n        pass\n',
      'pkg/api.py': 'from .session import Session\nSession().merge_environment(None)\n',
      'server/serve.go': 'package server\n\nfunc (s *Server) GracefulStop() {\n}\n',
      'server/use.go': 'package server\n\nfunc run() { s.GracefulStop() }\n',
    };
    expect(order(files, '`Session.merge_environment` ignores proxies')[0]).toBe('pkg/session.py');
    expect(order(files, 'GracefulStop() hangs forever')[0]).toBe('server/serve.go');
  });

  it('finds the module that raises a quoted error message and the file declaring an --option', () => {
    const files = {
      ...noise,
      'src/errors.py':
        'def check(n):\n    raise ValueError(f"Cannot merge {n} frames with different shapes")\n',
      'src/cli.py': 'parser.add_argument("--max-depth", type=int)\n',
      'src/other.py': 'def merge(frames, shapes):\n    return frames\n',
    };
    const err = rankFiles(
      mapOf(files),
      'Traceback:\nValueError: Cannot merge 3 frames with different shapes',
    );
    expect(err.files[0]?.path).toBe('src/errors.py');
    expect(err.files[0]?.reasons[0]).toMatch(/^holds the quoted message/);
    const opt = rankFiles(mapOf(files), 'Passing --max-depth 3 is ignored');
    expect(opt.files[0]?.path).toBe('src/cli.py');
    expect(opt.files[0]?.reasons[0]).toBe('declares option --max-depth');
  });

  it('follows a name to the file or folder named like it (case/kebab/snake/camel-insensitive)', () => {
    const files = {
      ...noise,
      'src/plugin/weekOfYear/index.js':
        "export default (o, c) => {\n  c.prototype.week = function week() {\n    return this.startOf('year')\n  }\n}\n",
      'src/plugin/isoWeek/index.js': 'export default (o, c) => { /* week of year */ }\n',
      'lib/quarter-of-year.py': 'def q(d):\n    return d\n',
    };
    const ranking = rankFiles(mapOf(files), 'The weekOfYear plugin returns 53 for a date');
    expect(ranking.files[0]?.path).toBe('src/plugin/weekOfYear/index.js');
    expect(ranking.files[0]?.reasons).toContain('path matches `weekOfYear`, named in the title');
    expect(order(files, '`quarter_of_year` is off by one')[0]).toBe('lib/quarter-of-year.py');
  });

  it('resolves a dotted module path to its file', () => {
    const files = {
      ...noise,
      'pkg/core/util.py': 'X = 1\n',
      'other/util_frame.py': 'Y = 2\n',
    };
    // Path words alone prefer other/util_frame.py ("util", "frame"); the module path names pkg/core/util.py.
    const ranking = rankFiles(mapOf(files), 'pkg.core.util.Frame breaks on empty input');
    expect(ranking.files[0]?.path).toBe('pkg/core/util.py');
    expect(ranking.files[0]?.reasons[0]).toBe('module `pkg.core.util.Frame`, named in the title');
  });

  it('ranks a stack-trace frame first, saying so', () => {
    const files = { ...noise, 'lib/core/dispatch.js': 'module.exports = function dispatch() {}\n' };
    const ranking = rankFiles(
      mapOf(files),
      'TypeError: x is undefined\n    at dispatch (/app/node_modules/axios/lib/core/dispatch.js:12:7)',
    );
    expect(ranking.files[0]?.path).toBe('lib/core/dispatch.js');
    expect(ranking.files[0]?.reasons[0]).toMatch(/^named in a stack trace/);
    expect(ranking.files[0]?.focusLines).toEqual([12]);
  });

  it('follows a frame of an installed copy to the repository file by its longest path tail', () => {
    const files = {
      ...noise,
      'src/click/types.py': 'class Choice:\n    def convert(self, value):\n        pass\n',
      'src/other/types.py': 'X = 1\n',
    };
    const ranking = rankFiles(
      mapOf(files),
      'Traceback (most recent call last):\n  File "/home/me/.venv/lib/python3.11/site-packages/click/types.py", line 2, in convert',
    );
    expect(ranking.files[0]?.path).toBe('src/click/types.py');
    expect(ranking.files[0]?.reasons[0]).toMatch(/^named in a stack trace/);
    const other = ranking.files.find((f) => f.path === 'src/other/types.py');
    expect(other?.reasons.join('; ') ?? '').not.toMatch(/stack trace|named in the issue/);
  });

  it('reads `self.fail` as the method `fail`, and `--color` not as every "color" string', () => {
    const files = {
      ...noise,
      'pkg/core.py': 'class Command:\n    def fail(self, message):\n        pass\n',
      'pkg/shell.py': 'def self(x):\n    return x\n',
      'pkg/term.py': 'STYLES = {"color": 1}\n',
      'pkg/cli.py': 'parser.add_argument("--color")\n',
    };
    const ranking = rankFiles(mapOf(files), 'Calling self.fail() with --color crashes');
    const reasons = ranking.files.flatMap((f) => f.reasons);
    expect(reasons).toContain('defines `fail`');
    expect(reasons).not.toContain('defines `self`');
    expect(ranking.files.find((f) => f.path === 'pkg/cli.py')?.reasons).toContain(
      'declares option --color',
    );
    expect(ranking.files.find((f) => f.path === 'pkg/term.py')?.reasons ?? []).not.toContain(
      'declares option --color',
    );
  });

  it('boosts the imports and importers of a top hit one hop, and lists its test after it', () => {
    const files = {
      ...noise,
      'src/refund.js':
        "import { round } from './money.js'\nexport function computeRefund(o) {\n  return round(o)\n}\n",
      'src/money.js': 'export function round(x) {\n  return x\n}\n',
      'src/other-money.js': 'export function roundDown(x) {\n  return x\n}\n',
      'test/refund.test.js': "import { computeRefund } from '../src/refund.js'\ncomputeRefund(1)\n",
    };
    const ranking = rankFiles(mapOf(files), '`computeRefund` returns too much');
    const paths = ranking.files.map((f) => f.path);
    expect(paths[0]).toBe('src/refund.js');
    expect(paths.indexOf('src/money.js')).toBeLessThan(paths.indexOf('src/other-money.js') >>> 0);
    expect(ranking.files.find((f) => f.path === 'src/money.js')?.reasons[0]).toMatch(
      /^imported by src\/refund\.js/,
    );
    expect(paths.indexOf('test/refund.test.js')).toBeGreaterThan(0);
    expect(ranking.files.find((f) => f.path === 'test/refund.test.js')?.reasons.join('; ')).toMatch(
      /test that exercises src\/refund\.js/,
    );
  });

  it('breaks ties by structure: shallower, then smaller, not by path', () => {
    const body = 'export function unrelated() {}\n';
    const files = {
      'a/b/zebra.js': body,
      'x/zebra.js': `${body}// padding padding\n`,
      'y/zebra.js': body,
    };
    // The same evidence for all three (one-letter folders make no path words): x/ and y/ are
    // shallower than a/b/; y/ is smaller than x/. By path alone the order would be a, x, y.
    expect(order(files, 'the zebra module')).toEqual(['y/zebra.js', 'x/zebra.js', 'a/b/zebra.js']);
  });
  it('finds the module that raises a message the test suite asserts in many files', () => {
    const message = 'Statement is unreachable';
    const files: Record<string, string> = {
      ...noise,
      'pkg/messages.py': `def unreachable(ctx):\n    fail("${message}", ctx)\n`,
      'pkg/checker.py': 'def check(node):\n    return node\n',
    };
    for (let i = 0; i < 18; i++)
      files[`test-data/unit/check-${i}.test`] = `[case test${i}]\nx = 1  # E: ${message}\n`;
    const issue = `"${message}" is not reported after assert_never()`;
    const ranking = rankFiles(mapOf(files), issue);
    expect(ranking.files[0]?.path).toBe('pkg/messages.py');
    expect(ranking.files[0]?.reasons[0]).toBe(
      `holds the quoted message "${message}", as do 18 test or other files`,
    );
    // Held by more source files than count as evidence, it says nothing about any of them.
    for (let i = 0; i < 13; i++) files[`pkg/copy${i}.py`] = `MESSAGE = "${message}"\n`;
    expect(
      rankFiles(mapOf(files), issue)
        .files.flatMap((f) => f.reasons)
        .filter((r) => r.startsWith('holds the quoted message')),
    ).toEqual([]);
  });
  it('finds the source definition of a name that tests define again and again', () => {
    const files: Record<string, string> = {
      ...noise,
      'pkg/http/request.py':
        'class HttpRequest:\n    def get_host(self):\n        return self.host\n',
    };
    for (let i = 0; i < 15; i++)
      files[`tests/app${i}/test_views.py`] = `class HttpRequest:\n    host = "app${i}"\n`;
    const ranking = rankFiles(mapOf(files), 'HttpRequest.get_host() ignores the port');
    expect(ranking.files[0]?.path).toBe('pkg/http/request.py');
    expect(ranking.files[0]?.reasons).toContain('defines `HttpRequest`');
  });
});
