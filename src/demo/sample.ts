/**
 * The sample of `autofix demo`: a small JavaScript library with a real bug and real tests run by
 * `node --test`, the issue a user filed about it, and what a model would answer to each agent of
 * the pipeline — a first diff that fixes the reported bug but breaks another test (so validation
 * fails and the code fixer runs), the repair that passes, and the PR summary.
 *
 * The tests that show the bug fail on the base commit too: the baseline rule counts only failures
 * the change adds, so the first diff must break a test that passed before (it does: it clamps
 * pages past the end), or it would be taken for a pre-existing failure.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FixPlan, TriageResult } from '../contracts.js';
import { runGit } from '../git/run-git.js';

export const DEMO_REPO_NAME = 'pager';
export const DEMO_OWNER = 'demo';
export const DEMO_ISSUE_NUMBER = 7;
export const DEMO_VALIDATE = 'node --test';
export const DEMO_FILE = 'src/paginate.js';

export const DEMO_ISSUE = {
  title: 'paginate(): page 1 skips the first ten items',
  body: [
    'The first page of search results starts at the 11th result, and the last page is empty.',
    '',
    '```js',
    "import { paginate } from 'pager';",
    'paginate(results, 1, 10).items; // results 11-20, expected 1-10',
    'paginate(results, 3, 10).items; // [] with 25 results, expected 21-25',
    '```',
    '',
    'Pages are numbered from 1 everywhere else (the UI, `?page=` links, `pageSummary`).',
  ].join('\n'),
};

const PAGINATE = `/**
 * Splits a list into pages. Pages are numbered from 1, as in the UI and in \`?page=\` links.
 */
export function paginate(items, page = 1, perPage = 10) {
  if (!Number.isInteger(page) || page < 1) {
    throw new RangeError(\`page must be a whole number from 1, got \${page}\`);
  }
  if (!Number.isInteger(perPage) || perPage < 1) {
    throw new RangeError(\`perPage must be a whole number from 1, got \${perPage}\`);
  }
  const totalPages = Math.max(1, Math.ceil(items.length / perPage));
  const start = page * perPage;
  return {
    items: items.slice(start, start + perPage),
    page,
    perPage,
    totalPages,
    hasPrevious: page > 1,
    hasNext: page < totalPages,
  };
}
`;

const SUMMARY = `/** "Showing 11–20 of 25" for a page that paginate() returned. */
export function pageSummary(result, total) {
  if (result.items.length === 0) return 'No results on this page';
  const first = (result.page - 1) * result.perPage + 1;
  const last = first + result.items.length - 1;
  return \`Showing \${first}–\${last} of \${total}\`;
}
`;

const TESTS = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pageSummary, paginate } from '../src/index.js';

const results = Array.from({ length: 25 }, (_, i) => i + 1);

test('page 1 starts at the first item', () => {
  assert.deepEqual(paginate(results, 1, 10).items, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
});

test('the last page holds the remainder', () => {
  const last = paginate(results, 3, 10);
  assert.deepEqual(last.items, [21, 22, 23, 24, 25]);
  assert.equal(last.hasNext, false);
});

test('a page past the end is empty', () => {
  const past = paginate(results, 5, 10);
  assert.deepEqual(past.items, []);
  assert.equal(past.page, 5);
  assert.equal(past.hasNext, false);
});

test('page numbers start at 1', () => {
  assert.throws(() => paginate(results, 0), RangeError);
});

test('the summary names the items shown', () => {
  assert.equal(pageSummary(paginate(results, 2, 10), results.length), 'Showing 11–20 of 25');
});
`;

/** `.github/autofix.yml`: the tests are the validation. */
export const DEMO_CONFIG = `# Autofix's settings for this repository (every key is optional).\nvalidate:\n  - ${DEMO_VALIDATE}\nmax_repair_attempts: 2\n`;

/** The repository's files at its first commit. */
export const DEMO_FILES: Readonly<Record<string, string>> = {
  'package.json': `${JSON.stringify(
    {
      name: DEMO_REPO_NAME,
      version: '1.2.0',
      description: 'Paginate lists for search results and tables',
      type: 'module',
      main: 'src/index.js',
      scripts: { test: 'node --test' },
      license: 'MIT',
    },
    null,
    2,
  )}\n`,
  'README.md': `# pager\n\nPaginate lists for search results and tables.\n\n\`\`\`js\nimport { paginate, pageSummary } from 'pager';\n\nconst page = paginate(results, 2, 10); // { items, page, perPage, totalPages, hasPrevious, hasNext }\npageSummary(page, results.length); // "Showing 11–20 of 25"\n\`\`\`\n\nTests: \`npm test\` (node --test).\n`,
  'src/index.js':
    "export { paginate } from './paginate.js';\nexport { pageSummary } from './summary.js';\n",
  [DEMO_FILE]: PAGINATE,
  'src/summary.js': SUMMARY,
  'test/paginate.test.js': TESTS,
  '.gitignore': 'node_modules/\n',
  '.github/autofix.yml': DEMO_CONFIG,
};

export const DEMO_TRIAGE: TriageResult = {
  risk: 'LOW',
  classification: 'fix',
  affected_files: [DEMO_FILE],
  summary:
    'paginate() computes the first index as page * perPage although pages start at 1, so every page is shifted by one.',
};

export const DEMO_PLAN: FixPlan = {
  branch_name: 'fix/paginate-first-page',
  commit_type: 'fix',
  scope: 'paginate',
  commit_subject: 'Start page 1 at the first item',
  plan_steps: [
    { id: '1', description: 'Compute the first index of a page as (page - 1) * perPage' },
    { id: '2', description: 'Keep pages past the end empty and page numbers checked' },
  ],
  file_changes: [{ path: DEMO_FILE, operation: 'MODIFY' }],
  validation_commands: [DEMO_VALIDATE],
};

/**
 * The code agent's first answer: the off-by-one fixed, plus a "defensive" clamp to the last page
 * that nobody asked for — it breaks `a page past the end is empty`, which passed before.
 */
export const DEMO_FIRST_DIFF = [
  '```diff',
  `--- a/${DEMO_FILE}`,
  `+++ b/${DEMO_FILE}`,
  '@@ -9,9 +9,10 @@ export function paginate(items, page = 1, perPage = 10) {',
  '     throw new RangeError(`perPage must be a whole number from 1, got ${perPage}`);',
  '   }',
  '   const totalPages = Math.max(1, Math.ceil(items.length / perPage));',
  '-  const start = page * perPage;',
  '+  const current = Math.min(page, totalPages);',
  '+  const start = (current - 1) * perPage;',
  '   return {',
  '     items: items.slice(start, start + perPage),',
  '     page,',
  '```',
  '',
].join('\n');

/** The code fixer's answer, on top of the first diff: the fix without the clamp. */
export const DEMO_REPAIR_DIFF = [
  '%%% The clamp to the last page made pages past the end return the last page; they must stay empty.',
  '```diff',
  `--- a/${DEMO_FILE}`,
  `+++ b/${DEMO_FILE}`,
  '@@ -9,10 +9,9 @@ export function paginate(items, page = 1, perPage = 10) {',
  '     throw new RangeError(`perPage must be a whole number from 1, got ${perPage}`);',
  '   }',
  '   const totalPages = Math.max(1, Math.ceil(items.length / perPage));',
  '-  const current = Math.min(page, totalPages);',
  '-  const start = (current - 1) * perPage;',
  '+  const start = (page - 1) * perPage;',
  '   return {',
  '     items: items.slice(start, start + perPage),',
  '     page,',
  '```',
  '',
].join('\n');

export const DEMO_PR_SUMMARY = {
  summary:
    'paginate() took the first index of page N as N × perPage, but pages are numbered from 1: page 1 began at the 11th item and the last page came back empty. It now starts at (N − 1) × perPage; pages past the end stay empty, as before.',
};

/** The line the fix leaves in src/paginate.js (tests look for it in the printed diff). */
export const DEMO_FIXED_LINE = 'const start = (page - 1) * perPage;';

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Pat Maintainer',
  GIT_AUTHOR_EMAIL: 'pat@example.com',
  GIT_COMMITTER_NAME: 'Pat Maintainer',
  GIT_COMMITTER_EMAIL: 'pat@example.com',
};

/**
 * Writes the sample repository into `dir` (created if needed) with one commit on `main`, by a demo
 * identity; git runs with the bot's environment (no user or system git config).
 */
export async function writeDemoRepo(dir: string): Promise<void> {
  for (const [path, content] of Object.entries(DEMO_FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  await runGit(['init', '--quiet', '--initial-branch=main'], { cwd: dir });
  await runGit(['add', '--all'], { cwd: dir });
  await runGit(['commit', '--quiet', '-m', 'pager 1.2.0'], { cwd: dir, env: IDENTITY });
}

/** The reproducer's test: fails on the base commit (page 1 starts at item 11), passes fixed. */
export const DEMO_REPRODUCTION = {
  path: 'test/issue-7-first-page.test.js',
  content: `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { paginate } from '../src/index.js';

const results = Array.from({ length: 25 }, (_, i) => i + 1);

test('page 1 of 25 results holds items 1-10, page 3 items 21-25 (#7)', () => {
  assert.deepEqual(paginate(results, 1, 10).items, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.deepEqual(paginate(results, 3, 10).items, [21, 22, 23, 24, 25]);
});
`,
  command: 'node --test test/issue-7-first-page.test.js',
  test_name: 'page 1 of 25 results holds items 1-10, page 3 items 21-25 (#7)',
};
