import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPromptContext } from '../../../src/context/build-prompt-context.js';
import { buildRepoMap, type RepoMap } from '../../../src/context/build-repo-map.js';
import { rankFiles } from '../../../src/context/rank-files.js';
import { countTokens } from '../../../src/llm/count-tokens.js';
import { generateRepo, TARGET, TARGET_FUNCTION } from '../../helpers/generate-repo.js';
import { underLoad } from '../../helpers/deadlines.js';
import { jest } from '@jest/globals';

// A hang guard for every test of this file (test/helpers/deadlines.ts).
jest.setTimeout(underLoad(120_000));

let root: string;
let map: RepoMap;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'autofix-ctx-2000-'));
  await generateRepo(root, 2000, { git: true });
  map = await buildRepoMap(root);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const issues = {
  path: `Late fees are charged twice for overdue invoices. See ${TARGET}:10.`,
  identifier: `\`${TARGET_FUNCTION}\` returns a fee on top of the fee: customers pay too much.`,
  words: 'The late fee calculator overcharges overdue invoices: the late fee is applied twice.',
};

describe('context on a 2,000-file repository', () => {
  it('maps every tracked file', () => {
    expect(map.source).toBe('git');
    expect(map.files.length + map.skipped.length).toBe(2000);
    expect(map.skipped).toEqual([]);
  });

  it.each(Object.entries(issues))(
    'ranks the target first when the issue gives a %s',
    (_kind, issue) => {
      const ranking = rankFiles(map, issue);
      expect(ranking.files[0]?.path).toBe(TARGET);
    },
  );

  it.each([2_000, 4_000, 8_000, 16_000, 32_000])(
    'keeps the prompt context within %i tokens',
    (budget) => {
      const ranking = rankFiles(map, issues.path);
      const ctx = buildPromptContext(map, ranking, { budget });
      expect(ctx.tokens).toBeLessThanOrEqual(budget);
      expect(countTokens(ctx.outline.text) + countTokens(ctx.code.text)).toBe(ctx.tokens);
      // The target is always shown, and the line the issue names with it.
      expect(ctx.code.files[0]?.path).toBe(TARGET);
      expect(ctx.code.text).toContain('return (invoice.amount + invoice.amount * rate) * rate;');
      // Nothing disappears silently: every ranked file in reach is shown or listed as not shown.
      for (const ranked of ranking.files.slice(0, 12)) {
        const shown = ctx.code.files.some((f) => f.path === ranked.path);
        expect(shown || ctx.code.text.includes(ranked.path)).toBe(true);
      }
    },
  );
});
