import { foldEvidence } from '../../../../src/context/ranking/fold.js';
import { rankInputs } from '../../../../src/context/ranking/inputs.js';
import { pileDefinitions } from '../../../../src/context/ranking/pile-definitions.js';
import type { Contribution, DefinitionClaim } from '../../../../src/context/ranking/types.js';
import { mapOf } from '../map-of.js';

const claim = (path: string, name: string, points: number): DefinitionClaim => ({
  path,
  name,
  kind: 'definesIdentifier',
  points,
  reason: `defines \`${name}\``,
  line: undefined,
});

describe('pileDefinitions', () => {
  it("keeps a file's best claim per name and piles its names 1, 1/2, 1/3, largest first", () => {
    const piled = pileDefinitions([
      claim('a.ts', 'small', 6),
      claim('a.ts', 'big', 30),
      claim('a.ts', 'big', 12),
      claim('a.ts', 'mid', 12),
      claim('b.ts', 'small', 6),
    ]);
    expect(piled.map((c) => [c.path, c.reason, c.points])).toEqual([
      ['a.ts', 'defines `big`', 30],
      ['a.ts', 'defines `mid`', 6],
      ['a.ts', 'defines `small`', 2],
      ['b.ts', 'defines `small`', 6],
    ]);
  });
});

describe('foldEvidence', () => {
  const map = mapOf({
    'src/refund.ts': 'export function refund() {}\n',
    'test/refund.test.ts': 'refund();\n',
  });
  const inputs = rankInputs(map, 'refund is wrong', {});
  const fold = (direct: Contribution[], words: Contribution[] = []) =>
    foldEvidence(inputs, { direct, definitions: [], words, hop: () => [] });

  it('adds a file’s points in order and lists each reason once', () => {
    const [file] = fold([
      { path: 'src/refund.ts', kind: 'namedPath', points: 100, reason: 'named', lines: [3] },
      { path: 'src/refund.ts', kind: 'namedPath', points: 0, reason: 'named' },
      { path: 'src/refund.ts', kind: 'raisesMessage', points: 30, reason: 'raises', lines: [1] },
      { path: 'elsewhere.ts', kind: 'namedPath', points: 100, reason: 'not in the map' },
    ]);
    expect(file).toEqual({
      path: 'src/refund.ts',
      score: 130,
      points: { namedPath: 100, raisesMessage: 30 },
      reasons: ['named', 'raises'],
      focusLines: [1, 3],
    });
  });

  it('demotes a test the issue does not name, and not one it names', () => {
    const test = {
      path: 'test/refund.test.ts',
      kind: 'bm25Content',
      points: 10,
      reason: 'words',
    } as const;
    expect(fold([test])[0]).toMatchObject({ score: 3, reasons: ['words', 'test: demoted ×0.3'] });
    expect(fold([{ ...test, named: true }])[0]).toMatchObject({ score: 10, reasons: ['words'] });
  });

  it('puts structural evidence before word overlap of the same score', () => {
    const ranked = fold(
      [{ path: 'test/refund.test.ts', kind: 'namedPath', points: 5, reason: 'named', named: true }],
      [{ path: 'src/refund.ts', kind: 'bm25Content', points: 5, reason: 'words', evidence: false }],
    );
    expect(ranked.map((f) => f.path)).toEqual(['test/refund.test.ts', 'src/refund.ts']);
  });
});
