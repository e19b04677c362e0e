import { createRng } from '../../../bench/patch/prng.js';
import { createBm25Index } from '../../../src/context/bm25.js';
import {
  identifierCount,
  identifierParts,
  splitWords,
  termCounts,
  termQuery,
  type TermCache,
} from '../../../src/context/split-words.js';

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

describe('termCounts', () => {
  /** What the needles must find: every query term among all of the text's terms. */
  const fullCounts = (text: string, keep: ReadonlySet<string>): Map<string, number> => {
    const counts = new Map<string, number>();
    for (const t of splitWords(text)) if (keep.has(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
    return counts;
  };
  const sorted = (m: ReadonlyMap<string, number>): [string, number][] =>
    [...m].sort(([a], [b]) => (a < b ? -1 : 1));

  it('counts what splitting every identifier counts: plurals, joined names, digits, `$`, case', () => {
    const text = [
      'function parseConfigFile(path) { return parse_config_file(path) } // PARSE_CONFIG_FILE',
      'const entries = listEntries(); entry.refunds += $refund; 2factor x_factor2 factor_2x',
      'class ParseConfigFileError extends Error {} parseconfigfile ParseConfigFile',
      'Über ünïcode config2file CONFIG entryRefunds refundEntries',
      // Names whose parts are all stopwords count only as joined: `isnot`, found as `is_not` too.
      'if is_not(x) or isNot(y) or IS_NOT or 9is_not or 2do_it: pass',
    ].join('\n');
    for (const issue of [
      'parseConfigFile fails for entries with refunds',
      'parse_config_file: the $refund factor is wrong',
      'An ENTRY has two factors and a config2file',
      'is_not and doIt are wrong',
    ]) {
      const query = termQuery(issue);
      const { counts, length } = termCounts(text, query);
      expect(sorted(counts)).toEqual(sorted(fullCounts(text, query.keep)));
      expect(length).toBe(text.match(/[A-Za-z_$][A-Za-z0-9_$]*/g)?.length);
    }
  });

  it("counts the same as a full split over this repository's own source", async () => {
    const { readdir, readFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const dir = join(process.cwd(), 'src', 'context');
    const texts = await Promise.all(
      (await readdir(dir))
        .filter((f) => f.endsWith('.ts'))
        .map((f) => readFile(join(dir, f), 'utf8')),
    );
    expect(texts.length).toBeGreaterThan(10);
    const issues = [
      'rankFiles puts the changelog first; see extract_issue_refs and the TermCache',
      'The BM25 scores of scoreBm25Counts differ from createBm25Index for long documents',
      'Stack traces with frames in site-packages name the wrong file (longestTail, innermost)',
    ];
    for (const issue of issues) {
      const query = termQuery(issue);
      const cache: TermCache = new Map();
      for (const text of texts)
        expect(sorted(termCounts(text, query, cache).counts)).toEqual(
          sorted(fullCounts(text, query.keep)),
        );
    }
  });

  it('counts identifiers alike from a string and from its UTF-8 bytes, as the pattern finds them', async () => {
    const { readdir, readFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const files = (await readdir(join(process.cwd(), 'src'), { recursive: true }))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => join(process.cwd(), 'src', f));
    expect(files.length).toBeGreaterThan(100);
    const pieces = [
      'a',
      'Z',
      '_',
      '$',
      '0',
      '9',
      ' ',
      '.',
      'é',
      'İ',
      '😀',
      '\r\n',
      '\u0000',
      'ab1',
      '1ab',
      '2fa',
    ];
    let seed = 7;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const generated = Array.from({ length: 2_000 }, () =>
      Array.from(
        { length: Math.floor(random() * 40) },
        () => pieces[Math.floor(random() * pieces.length)],
      ).join(''),
    );
    const texts = [...(await Promise.all(files.map((f) => readFile(f, 'utf8')))), ...generated, ''];
    for (const text of texts) {
      const expected = text.match(/[A-Za-z_$][A-Za-z0-9_$]*/g)?.length ?? 0;
      expect([text.slice(0, 40), identifierCount(text)]).toEqual([text.slice(0, 40), expected]);
      expect(identifierCount(Buffer.from(text, 'utf8'))).toBe(expected);
      expect(termCounts(text, termQuery('parse config')).length).toBe(expected);
    }
    // Bytes that are not UTF-8 decode to U+FFFD, which is no identifier either.
    const invalid = Buffer.from([0x61, 0xff, 0x62, 0xc3, 0x28, 0x24, 0x31, 0x80, 0x5f]);
    expect(identifierCount(invalid)).toBe(
      invalid.toString('utf8').match(/[A-Za-z_$][A-Za-z0-9_$]*/g)?.length,
    );
  });

  it('finds names next to letters outside ASCII, which are not part of them (İ, é)', () => {
    const text = 'İstanbul parseConfig İconfig config_parseé éparse';
    const query = termQuery('parse config');
    expect(sorted(termCounts(text, query).counts)).toEqual(sorted(fullCounts(text, query.keep)));
  });
});

describe('scoreBm25Counts', () => {
  it('scores term counts as the full index scores the same documents', async () => {
    const { scoreBm25Counts } = await import('../../../src/context/bm25.js');
    const texts = [
      'function parseConfigFile(path) { return readConfig(path) }',
      'const refund = computeRefund(order); // refund the order total',
      'export class OrderTotal { total() { return this.items.length } }',
    ];
    const query = splitWords('refund order total config');
    const documents = texts.map((t) => splitWords(t));
    const expected = createBm25Index(documents).score(query);
    const actual = scoreBm25Counts(
      documents.map((terms) => {
        const counts = new Map<string, number>();
        for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
        return { counts, length: terms.length };
      }),
      query,
    );
    actual.forEach((score, i) => expect(score).toBeCloseTo(expected[i] ?? NaN, 10));
  });
});

describe('query weights', () => {
  const counted = (texts: string[]): { counts: Map<string, number>; length: number }[] =>
    texts.map((t) => {
      const terms = splitWords(t);
      const counts = new Map<string, number>();
      for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
      return { counts, length: terms.length };
    });

  it('weighs a term of the title twice, and a repeated term up to about twice', () => {
    const query = termQuery(
      'Refund rounds the total\n\nThe refund of an order loses a cent; the refund is wrong.',
    );
    // `refund`: in the title and three times in all (2 × 2.2·3 / 4.2); `order`: once, body only.
    expect(query.weights.get('refund')).toBeCloseTo(2 * ((2.2 * 3) / 4.2), 10);
    expect(query.weights.get('total')).toBeCloseTo(2, 10);
    expect(query.weights.get('order')).toBeCloseTo(1, 10);
    expect(query.weights.get('cent')).toBeCloseTo(1, 10);
  });

  it('scales each term by its weight, and weights of 1 change nothing', async () => {
    const { scoreBm25Counts } = await import('../../../src/context/bm25.js');
    const documents = counted([
      'function roundTotal(total) { return Math.round(total) }',
      'function chargeCard(card) { return card.charge() }',
      'const unrelated = 1',
    ]);
    const terms = ['total', 'card'];
    const plain = scoreBm25Counts(documents, terms);
    expect(plain[0]).toBeGreaterThan(0);
    const ones = scoreBm25Counts(documents, terms, { weights: new Map([['total', 1]]) });
    ones.forEach((score, i) => expect(score).toBeCloseTo(plain[i] ?? NaN, 10));
    const weighted = scoreBm25Counts(documents, terms, { weights: new Map([['total', 2]]) });
    expect(weighted[0]).toBeCloseTo(2 * (plain[0] ?? NaN), 10);
    expect(weighted[1]).toBeCloseTo(plain[1] ?? NaN, 10);
    expect(weighted[2]).toBe(0);
    // The full index weighs the same way (paths are scored with it).
    const index = createBm25Index(['src/round_total.ts', 'src/charge_card.ts'].map(splitWords));
    const [total, card] = index.score(terms);
    const [total2, card2] = index.score(terms, new Map([['total', 2]]));
    expect(total2).toBeCloseTo(2 * (total ?? NaN), 10);
    expect(card2).toBeCloseTo(card ?? NaN, 10);
  });
});

describe('BM25 sums in the query order', () => {
  /** The plain loop over the query's terms, as both scorers were first written. */
  function reference(
    documents: { counts: ReadonlyMap<string, number>; length: number }[],
    query: readonly string[],
  ): number[] {
    const k1 = 1.2;
    const b = 0.75;
    const terms = [...new Set(query)];
    const n = documents.length;
    const averageLength = documents.reduce((sum, d) => sum + d.length, 0) / Math.max(1, n);
    const idf = terms.map((t) => {
      const df = documents.filter((d) => d.counts.has(t)).length;
      return Math.log(1 + (n - df + 0.5) / (df + 0.5));
    });
    return documents.map((d) => {
      const norm = k1 * (1 - b + (b * d.length) / (averageLength || 1));
      let score = 0;
      terms.forEach((term, j) => {
        const f = d.counts.get(term);
        if (f) score += idf[j]! * ((f * (k1 + 1)) / (f + norm));
      });
      return score;
    });
  }

  it('gives the very same numbers as a loop over the query, whatever order the counts were made in', async () => {
    const { scoreBm25Counts } = await import('../../../src/context/bm25.js');
    const rng = createRng(18);
    const vocabulary = Array.from({ length: 60 }, (_, i) => `t${i}`);
    for (let round = 0; round < 300; round++) {
      const query = Array.from({ length: rng.int(1, 40) }, () => rng.pick(vocabulary));
      const documents = Array.from({ length: rng.int(1, 30) }, () => {
        const counts = new Map<string, number>();
        // Counts in the order the text holds them (not the query's), a zero count now and then.
        for (let k = rng.int(0, 25); k > 0; k--) counts.set(rng.pick(vocabulary), rng.int(0, 5));
        return { counts, length: rng.int(0, 400) };
      });
      const documentsAsTerms = documents.map((d) =>
        [...d.counts].flatMap(([t, f]) => Array<string>(f).fill(t)),
      );
      expect(scoreBm25Counts(documents, query)).toEqual(reference(documents, query));
      expect(createBm25Index(documentsAsTerms).score(query)).toEqual(
        reference(
          documentsAsTerms.map((terms) => {
            const counts = new Map<string, number>();
            for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
            return { counts, length: terms.length };
          }),
          query,
        ),
      );
    }
  });
});
