/** Okapi BM25 over pre-split documents. Pure and deterministic. */

export interface Bm25Index {
  /**
   * Score of every document for the query terms (duplicates in the query count once), each
   * term's share scaled by its weight (1 when `weights` has none).
   */
  score(query: readonly string[], weights?: ReadonlyMap<string, number>): number[];
  readonly size: number;
}

/** A term's inverse document frequency among `n` documents, `df` of which hold it. */
const idfOf = (n: number, df: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));

export function createBm25Index(
  documents: readonly (readonly string[])[],
  { k1 = 1.2, b = 0.75 }: { k1?: number; b?: number } = {},
): Bm25Index {
  const frequencies = documents.map((terms) => {
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    return tf;
  });
  const documentFrequency = new Map<string, number>();
  for (const tf of frequencies)
    for (const term of tf.keys())
      documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const n = documents.length;
  const averageLength = documents.reduce((sum, d) => sum + d.length, 0) / Math.max(1, n);

  return {
    size: n,
    score(query, weights) {
      const terms = [...new Set(query)];
      const idf = terms.map(
        (t) => idfOf(n, documentFrequency.get(t) ?? 0) * (weights?.get(t) ?? 1),
      );
      const at = new Map(terms.map((t, j) => [t, j]));
      return frequencies.map((tf, i) => {
        const length = documents[i]?.length ?? 0;
        const norm = k1 * (1 - b + (b * length) / (averageLength || 1));
        return sumInQueryOrder(tf, at, idf, norm, k1);
      });
    },
  };
}

/**
 * BM25 scores from per-document term counts (only the query's terms need counting) and
 * document lengths: the same numbers as `createBm25Index(documents).score(query)`.
 */
export function scoreBm25Counts(
  documents: readonly { counts: ReadonlyMap<string, number>; length: number }[],
  query: readonly string[],
  {
    k1 = 1.2,
    b = 0.75,
    weights,
  }: { k1?: number; b?: number; weights?: ReadonlyMap<string, number> } = {},
): number[] {
  const terms = [...new Set(query)];
  const n = documents.length;
  const averageLength = documents.reduce((sum, d) => sum + d.length, 0) / Math.max(1, n);
  const at = new Map(terms.map((t, j) => [t, j]));
  // Document frequencies from each document's own counts: a long issue has a thousand terms, a
  // large repository ten thousand files, and a document holds few of the terms.
  const df = new Array<number>(terms.length).fill(0);
  for (const d of documents)
    for (const term of d.counts.keys()) {
      const j = at.get(term);
      if (j !== undefined) df[j]!++;
    }
  const idf = df.map((m, j) => idfOf(n, m) * (weights?.get(terms[j] ?? '') ?? 1));
  return documents.map((d) => {
    const norm = k1 * (1 - b + (b * d.length) / (averageLength || 1));
    return sumInQueryOrder(d.counts, at, idf, norm, k1);
  });
}

/**
 * One document's score: the terms it holds, added in the query's order (the order a loop over
 * the query adds them in, so the sums are the same to the last bit) without a loop over the
 * query's terms the document lacks.
 */
function sumInQueryOrder(
  counts: ReadonlyMap<string, number>,
  at: ReadonlyMap<string, number>,
  idf: readonly number[],
  norm: number,
  k1: number,
): number {
  const held: [number, number][] = [];
  for (const [term, f] of counts) {
    const j = at.get(term);
    if (j !== undefined && f) held.push([j, f]);
  }
  held.sort((x, y) => x[0] - y[0]);
  let score = 0;
  for (const [j, f] of held) score += idf[j]! * ((f * (k1 + 1)) / (f + norm));
  return score;
}
