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
