/** Okapi BM25 over pre-split documents. Pure and deterministic. */

export interface Bm25Index {
  /** Score of every document for the query terms (duplicates in the query count once). */
  score(query: readonly string[]): number[];
  readonly size: number;
}

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
    score(query) {
      const terms = [...new Set(query)];
      const idf = terms.map((t) => {
        const df = documentFrequency.get(t) ?? 0;
        return Math.log(1 + (n - df + 0.5) / (df + 0.5));
      });
      return frequencies.map((tf, i) => {
        const length = documents[i]?.length ?? 0;
        let score = 0;
        terms.forEach((term, j) => {
          const f = tf.get(term);
          if (!f) return;
          const norm = k1 * (1 - b + (b * length) / (averageLength || 1));
          score += (idf[j] ?? 0) * ((f * (k1 + 1)) / (f + norm));
        });
        return score;
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
  { k1 = 1.2, b = 0.75 }: { k1?: number; b?: number } = {},
): number[] {
  const terms = [...new Set(query)];
  const n = documents.length;
  const averageLength = documents.reduce((sum, d) => sum + d.length, 0) / Math.max(1, n);
  const idf = terms.map((t) => {
    let df = 0;
    for (const d of documents) if (d.counts.has(t)) df++;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  });
  return documents.map((d) => {
    const norm = k1 * (1 - b + (b * d.length) / (averageLength || 1));
    let score = 0;
    terms.forEach((term, j) => {
      const f = d.counts.get(term);
      if (f) score += (idf[j] ?? 0) * ((f * (k1 + 1)) / (f + norm));
    });
    return score;
  });
}
