import { createBm25Index } from '../../../src/context/bm25.js';
import { identifierParts, splitWords } from '../../../src/context/split-words.js';

describe('splitWords', () => {
  it('splits identifiers, keeps the whole one, drops stopwords and stems plurals', () => {
    expect(identifierParts('parseHTTPResponse2')).toEqual(['parse', 'http', 'response']);
    expect(splitWords('The refunds of parseConfigFile and MAX_ITEMS')).toEqual([
      'refund',
      'parse',
      'config',
      'file',
      'parseconfigfile',
      'max',
      'item',
      'maxitems',
    ]);
  });
});

describe('BM25', () => {
  it('ranks rare matching terms above common ones and normalises by length', () => {
    const index = createBm25Index([
      ['refund', 'order', 'order'],
      ['order', 'order', 'order', 'order'],
      ['refund', 'order', 'x', 'y', 'z', 'w', 'v', 'u'],
      ['cart'],
    ]);
    const [a, b, c, d] = index.score(['refund', 'order']);
    expect(a).toBeGreaterThan(c!);
    expect(c).toBeGreaterThan(b!);
    expect(d).toBe(0);
  });
});

describe('scoreBm25Counts', () => {
  it('gives the same scores as the full index, counting only the query terms', async () => {
    const { createBm25Index, scoreBm25Counts } = await import('../../../src/context/bm25.js');
    const { splitWords, termCounts } = await import('../../../src/context/split-words.js');
    const texts = [
      'function parseConfigFile(path) { return readConfig(path) }',
      'const refund = computeRefund(order); // refund the order total',
      'export class OrderTotal { total() { return this.items.length } }',
    ];
    const query = splitWords('refund order total config');
    const keep = new Set(query);
    const expected = createBm25Index(texts.map((t) => splitWords(t))).score(query);
    const actual = scoreBm25Counts(
      texts.map((t) => termCounts(t, keep)),
      query,
    );
    actual.forEach((score, i) => expect(score).toBeCloseTo(expected[i] ?? NaN, 10));
  });
});
