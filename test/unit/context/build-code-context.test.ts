import { buildCodeContext, fitCap } from '../../../src/context/build-code-context.js';
import { buildPromptContext } from '../../../src/context/build-prompt-context.js';
import { rankFiles } from '../../../src/context/rank-files.js';
import { renderRepoOutline } from '../../../src/context/render-repo-outline.js';
import { countTokens } from '../../../src/llm/count-tokens.js';
import { mapOf } from './map-of.js';

const filler = (name: string, lines: number) =>
  Array.from(
    { length: lines },
    (_, i) => `export const ${name}Value${i} = ${i} * factor; // padding line ${i}`,
  ).join('\n') + '\n';

const big = filler('big', 400).replace(
  'export const bigValue200 = 200 * factor; // padding line 200',
  'export function computeRefund(order) { return order.total - order.fee; }',
);
const map = mapOf({
  'src/refund.ts': big,
  'src/small.ts': 'export const refundFee = 2; // refund fee\n',
  'src/medium.ts': filler('refundMedium', 60),
});
const issue = 'computeRefund in src/refund.ts subtracts the refund fee twice';

describe('fitCap', () => {
  it('caps the largest sizes first', () => {
    expect(fitCap([10, 20, 30], 100)).toBe(Infinity);
    expect(fitCap([10, 20, 100], 70)).toBe(40);
    expect(fitCap([50, 50], 60)).toBe(30);
  });
});

describe('buildCodeContext', () => {
  it('shows every ranked file whole when they fit', () => {
    const ranking = rankFiles(map, issue);
    const ctx = buildCodeContext(map, ranking, { budget: 50_000 });
    expect(ctx.files.map((f) => [f.path, f.truncated])).toEqual([
      ['src/refund.ts', false],
      ['src/small.ts', false],
      ['src/medium.ts', false],
    ]);
    expect(ctx.text).toContain('### src/refund.ts (whole file, 400 lines; rank 1)');
    expect(ctx.text).not.toContain('Context notes');
    expect(ctx.tokens).toBe(countTokens(ctx.text));
  });

  it('cuts the largest file around the lines the issue points at, and says so', () => {
    const ranking = rankFiles(map, issue);
    const ctx = buildCodeContext(map, ranking, { budget: 2500 });
    expect(ctx.tokens).toBeLessThanOrEqual(2500);
    const refund = ctx.files.find((f) => f.path === 'src/refund.ts');
    expect(refund?.truncated).toBe(true);
    expect(ctx.files.find((f) => f.path === 'src/small.ts')?.truncated).toBe(false);
    expect(ctx.text).toContain('computeRefund(order) { return order.total - order.fee; }');
    expect(ctx.text).toMatch(/⋯ lines 1-\d+ not shown ⋯/);
    expect(ctx.text).toMatch(
      /## Context notes\n- Cut to fit the token budget: src\/refund\.ts \(\d+ of 400 lines shown\)/,
    );
  });

  it('leaves out the lowest-ranked files only when excerpts would be too small, listing them', () => {
    const ranking = rankFiles(map, issue);
    const ctx = buildCodeContext(map, ranking, { budget: 350 });
    expect(ctx.tokens).toBeLessThanOrEqual(350);
    expect(ctx.files.map((f) => f.path)).toContain('src/refund.ts');
    expect(ctx.omitted.length).toBeGreaterThan(0);
    for (const o of ctx.omitted) expect(ctx.text).toContain(o.path);
  });

  it('never exceeds the budget', () => {
    const ranking = rankFiles(map, issue);
    for (const budget of [200, 300, 700, 1000, 1500, 3000, 6000]) {
      const ctx = buildCodeContext(map, ranking, { budget });
      expect(ctx.tokens).toBeLessThanOrEqual(budget);
      expect(countTokens(ctx.text)).toBe(ctx.tokens);
    }
  });

  it('lists a named file that could not be read', () => {
    const withSkipped = mapOf({ 'src/a.ts': 'x\n' }, [
      { path: 'src/gen.ts', reason: 'too-large', bytes: 900_000 },
    ]);
    const ctx = buildCodeContext(withSkipped, rankFiles(withSkipped, 'bug in src/gen.ts'), {
      budget: 1000,
    });
    expect(ctx.text).toContain('src/gen.ts (named in the issue but too-large, 900000 bytes)');
  });
});

describe('repository outline', () => {
  it('lists files with their definitions, shortening to fit the budget', () => {
    const ranking = rankFiles(map, issue);
    const full = renderRepoOutline(map, ranking, 10_000);
    expect(full.level).toBe('symbols');
    expect(full.text).toContain('src/refund.ts: bigValue0, bigValue1');
    const tight = renderRepoOutline(map, ranking, 40);
    expect(tight.tokens).toBeLessThanOrEqual(40);
    expect(tight.level).not.toBe('symbols');
  });

  it('splits one budget between outline and code', () => {
    const ctx = buildPromptContext(map, rankFiles(map, issue), { budget: 3000 });
    expect(ctx.tokens).toBe(ctx.outline.tokens + ctx.code.tokens);
    expect(ctx.tokens).toBeLessThanOrEqual(3000);
    expect(ctx.outline.tokens).toBeLessThanOrEqual(600);
  });
});
