/**
 * `autofix context` on a small real repository (issue #18): the maintainer's rules show in the
 * order and in the reasons — the definition of the named symbol first, the plugin named like the
 * issue's word next, docs, issue templates, tests and build output demoted, each saying why.
 * The compiled CLI is also run when `dist/` is there (it maps and ranks in a worker thread).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { explainContext, formatContextReport } from '../../../src/context/explain-context.js';
import { createRepo, type TestRepo } from '../../helpers/repo-builder.js';

const WORDS = 'week of year returns the wrong week number for a sunday in a locale';
let repo: TestRepo;
beforeAll(() => {
  repo = createRepo({
    files: {
      'src/index.js': 'export function parse(d) {\n  return d\n}\n',
      'src/plugin/weekOfYear/index.js':
        'export default (o, c) => {\n  const proto = c.prototype\n  proto.week = function (week = null) {\n    return 1\n  }\n}\n',
      'src/plugin/isoWeek/index.js': 'export default (o, c) => {\n  // iso week of year\n}\n',
      'README.md': `# Day\n${WORDS}\n${WORDS}\n`,
      'docs/ja/README-ja.md': `${WORDS}\n${WORDS}\n`,
      '.github/ISSUE_TEMPLATE/bug.md': `Describe the bug\n${WORDS}\n`,
      'test/plugin/weekOfYear.test.js': `import weekOfYear from '../../src/plugin/weekOfYear'\n// ${WORDS}\nweek()\n`,
      'dist/day.cjs': `/* ${WORDS} ${WORDS} */ function week(){}\n`,
    },
  });
});
afterAll(() => repo.cleanup());

const ISSUE =
  'The weekOfYear plugin: `.week()` returns the wrong week number for a sunday in my locale.';

describe('autofix context explains a maintainer-like ranking', () => {
  it('puts the definition first and says why each file ranks where it does', async () => {
    const report = await explainContext(repo.dir, ISSUE, { budget: 12_000, top: 20 });
    const paths = report.ranking.map((r) => r.path);
    expect(paths[0]).toBe('src/plugin/weekOfYear/index.js');
    expect(report.ranking[0]?.reasons).toEqual(
      expect.arrayContaining(['defines `week`', 'path matches `weekOfYear`']),
    );
    const reason = (path: string): string =>
      report.ranking.find((r) => r.path === path)?.reasons.join('; ') ?? '';
    expect(reason('README.md')).toContain('docs: demoted');
    expect(reason('.github/ISSUE_TEMPLATE/bug.md')).toContain('issue template/CI config: demoted');
    expect(reason('test/plugin/weekOfYear.test.js')).toContain('test: demoted');
    expect(reason('dist/day.cjs')).toContain('build output/generated: demoted');
    // Source before every demoted file.
    const lastSource = Math.max(
      paths.indexOf('src/plugin/weekOfYear/index.js'),
      paths.indexOf('src/plugin/isoWeek/index.js'),
    );
    for (const p of [
      'README.md',
      'docs/ja/README-ja.md',
      '.github/ISSUE_TEMPLATE/bug.md',
      'dist/day.cjs',
    ])
      expect(paths.indexOf(p)).toBeGreaterThan(lastSource);
    expect(formatContextReport(report)).toContain('defines `week`');
  });

  const cli = join(process.cwd(), 'dist/src/bin/autofix.js');
  (existsSync(cli) ? it : it.skip)(
    'gives the same report from the compiled CLI, which reads, counts and ranks in two threads',
    async () => {
      const issueFile = join(repo.dir, 'issue.md'); // untracked: not in the map
      // The same issue with its template's lines filled in: both threads read it without them.
      const withTemplate = `${ISSUE}\nDescribe the bug\n${WORDS}`;
      // …and with an environment section that calls `parse()`: neither its words nor its names
      // count (both threads leave them out).
      const withEnvironment = `${ISSUE}\n\n### Environment\n- OS: Ubuntu 22.04\nday 1.11.7, through \`parse()\` in our build\n`;
      // The default budget lists only the best files' definitions; 40,000 tokens list them all
      // (the worker finds every file's definitions before it drops their contents).
      for (const [budget, issue] of [
        [12_000, ISSUE],
        [40_000, ISSUE],
        [12_000, withTemplate],
        [12_000, withEnvironment],
      ] as const) {
        writeFileSync(issueFile, issue);
        const out = execFileSync(
          'node',
          [
            cli,
            'context',
            '--repo',
            repo.dir,
            '--issue-file',
            issueFile,
            '--json',
            '--show',
            '--budget',
            String(budget),
          ],
          { encoding: 'utf8' },
        );
        const fromCli = JSON.parse(out) as Record<string, unknown>;
        const here = await explainContext(repo.dir, issue, { budget, top: 20 });
        expect(fromCli.ranking).toEqual(here.ranking);
        expect(fromCli.outline).toEqual(here.outline);
        expect(fromCli.code).toEqual(here.code);
        expect(fromCli.outline_text).toBe(here.context.outline.text);
        expect(fromCli.code_text).toBe(here.context.code.text);
        expect(here.ranking[0]?.path).toBe('src/plugin/weekOfYear/index.js');
        // The template's text and the environment change nothing, in either thread.
        if (issue === withTemplate || issue === withEnvironment)
          expect(here.ranking).toEqual(
            (await explainContext(repo.dir, ISSUE, { budget, top: 20 })).ranking,
          );
        if (budget === 40_000) {
          expect(here.outline.level).toBe('symbols');
          expect(here.context.outline.text).toContain('src/index.js: parse');
        }
      }
    },
  );
});
