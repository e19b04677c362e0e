import { rankFiles } from '../../../src/context/rank-files.js';
import { mapOf } from './map-of.js';

const noise = Object.fromEntries(
  Array.from({ length: 60 }, (_, i) => [
    `src/module${i}/handler${i}.ts`,
    `export function handle${i}(order) {\n  return order.total * ${i};\n}\n`,
  ]),
);

describe('rankFiles', () => {
  it('puts the file the issue names first, with its line as focus', () => {
    const map = mapOf({
      ...noise,
      'src/payments/refund.ts': 'export function computeRefund(order) {\n  return 0;\n}\n',
    });
    const ranking = rankFiles(
      map,
      'Wrong amount from src/payments/refund.ts:2 for every order total.',
    );
    expect(ranking.files[0]).toMatchObject({ path: 'src/payments/refund.ts', focusLines: [2] });
    expect(ranking.files[0]?.reasons[0]).toBe('named in the issue (src/payments/refund.ts:2)');
    expect(ranking.files[0]!.score).toBeGreaterThan(100);
  });

  it('breaks each score down by kind of evidence, summing to the score', () => {
    const map = mapOf({
      ...noise,
      'src/payments/refund.ts':
        'import { roundCents } from "./money";\nexport function computeRefund(order) {\n  return roundCents(order.total);\n}\n',
      'src/payments/money.ts': 'export function roundCents(x) {\n  return Math.round(x);\n}\n',
      'docs/refund.md': 'How a refund of an order is computed.\n',
    });
    const ranking = rankFiles(
      map,
      'Refund is wrong\n\nsrc/payments/refund.ts:3 and `roundCents` lose a cent on every order.',
    );
    const byPath = new Map(ranking.files.map((f) => [f.path, f]));
    expect(byPath.get('src/payments/refund.ts')?.points).toMatchObject({ namedPath: 100 });
    expect(byPath.get('src/payments/money.ts')?.points.definesIdentifier).toBe(30);
    // The importer of the top file gets the hop, the doc only words (demoted with its score).
    expect(byPath.get('src/payments/money.ts')?.points.importHop).toBeGreaterThan(0);
    expect(byPath.get('docs/refund.md')?.points.bm25Content).toBeGreaterThan(0);
    for (const f of ranking.files) {
      const sum = Object.values(f.points).reduce((a, b) => a + b, 0);
      expect(Math.abs(sum - f.score)).toBeLessThan(0.05);
    }
  });

  it("ranks the file holding the title's words above one holding the body's", () => {
    const map = mapOf({
      ...noise,
      'src/shipping/tariff.ts': 'export function tariffZone(parcel) {\n  return parcel.zone;\n}\n',
      'src/shipping/label.ts': 'export function printLabel(parcel) {\n  return parcel.label;\n}\n',
    });
    const place = (issue: string, path: string): number =>
      rankFiles(map, issue).files.findIndex((f) => f.path === path);
    const tariff = 'src/shipping/tariff.ts';
    const label = 'src/shipping/label.ts';
    const first = 'Wrong tariff zone\n\nThe printed label is fine.';
    expect(place(first, tariff)).toBeLessThan(place(first, label));
    // The same words, the other way round: the title decides.
    const swapped = 'Wrong printed label\n\nThe tariff zone is fine.';
    expect(place(swapped, label)).toBeLessThan(place(swapped, tariff));
  });

  it('finds the file defining a named identifier', () => {
    const map = mapOf({
      ...noise,
      'src/a/util.ts': 'export function applyDiscount(cart) {\n  return cart;\n}\n',
      'src/b/caller.ts': 'import { applyDiscount } from "../a/util";\napplyDiscount(cart);\n',
    });
    const ranking = rankFiles(map, '`applyDiscount` ignores the coupon');
    expect(ranking.files.slice(0, 2).map((f) => f.path)).toEqual([
      'src/a/util.ts',
      'src/b/caller.ts',
    ]);
    expect(ranking.files[0]?.reasons).toContain('defines `applyDiscount`');
    expect(ranking.files[0]?.focusLines).toEqual([1]);
  });

  it('matches a file name given without its directory, and words by BM25', () => {
    const map = mapOf({
      ...noise,
      'lib/shipping/tariff-table.js': 'const zones = {};\nmodule.exports = zones;\n',
      'docs/shipping.md': '# Shipping\nTariffs per zone.\n',
    });
    expect(rankFiles(map, 'tariff-table.js has the wrong zones').files[0]?.path).toBe(
      'lib/shipping/tariff-table.js',
    );
    const byWords = rankFiles(map, 'shipping tariff zones are outdated');
    expect(
      byWords.files
        .slice(0, 2)
        .map((f) => f.path)
        .sort(),
    ).toEqual(['docs/shipping.md', 'lib/shipping/tariff-table.js']);
  });

  it('reports a named file the map could not read instead of losing it', () => {
    const map = mapOf(noise, [{ path: 'data/huge.json', reason: 'too-large', bytes: 9_000_000 }]);
    const ranking = rankFiles(map, 'data/huge.json is malformed');
    expect(ranking.unavailable).toEqual([
      { path: 'data/huge.json', reason: 'too-large', bytes: 9_000_000 },
    ]);
  });

  it('is deterministic and ranks nothing for an unrelated issue', () => {
    const map = mapOf(noise);
    expect(rankFiles(map, 'zebra quokka').files).toEqual([]);
    expect(rankFiles(map, 'order total handler')).toEqual(rankFiles(map, 'order total handler'));
  });
});
