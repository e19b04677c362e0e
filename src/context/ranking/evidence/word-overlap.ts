/**
 * Word overlap (`bm25Path`, `bm25Content`): BM25 over each file's path words and its content's
 * counts of the terms, the query's weights (the title's terms, repeated terms) counting
 * in both. Scaled so that the best file gets `WEIGHTS.bm25Path`/`bm25Content`: it orders files,
 * and the best overlap outweighs weak evidence (a name defined in a file), not a file the issue
 * names. No structural evidence.
 */
import { createBm25Index, scoreBm25Counts } from '../../bm25.js';
import { splitWords, termCounts, type TermCache } from '../../split-words.js';
import { round } from '../format.js';
import type { RankInputs } from '../inputs.js';
import type { Contribution } from '../types.js';
import { WEIGHTS } from '../weights.js';

/** Each score as a share of the best one, times `weight` (0 when nothing scores). */
function scaled(scores: readonly number[], weight: number): number[] {
  const max = Math.max(0, ...scores);
  return scores.map((s) => (max > 0 ? (s / max) * weight : 0));
}

export function wordOverlapEvidence(inputs: RankInputs): Contribution[] {
  const { map, query, options } = inputs;
  const terms = [...query.terms];
  if (terms.length === 0 || map.files.length === 0) return [];
  const pathScores = createBm25Index(map.files.map((f) => splitWords(f.path))).score(
    terms,
    query.weights,
  );
  const cache: TermCache = new Map();
  const contentScores = scoreBm25Counts(
    map.files.map(
      (f) => options.counted?.get(f.path) ?? termCounts(f.content, query, cache, f.identifiers),
    ),
    terms,
    { weights: query.weights },
  );
  const byPath = scaled(pathScores, WEIGHTS.bm25Path);
  const byContent = scaled(contentScores, WEIGHTS.bm25Content);
  return map.files.flatMap((f, i): Contribution[] => {
    const pathScore = byPath[i] ?? 0;
    const contentScore = byContent[i] ?? 0;
    return [
      ...(pathScore > 0
        ? [
            {
              path: f.path,
              kind: 'bm25Path' as const,
              points: pathScore,
              reason: `path words match (${round(pathScore)})`,
              evidence: false,
            },
          ]
        : []),
      ...(contentScore > 0
        ? [
            {
              path: f.path,
              kind: 'bm25Content' as const,
              points: contentScore,
              reason: `content matches (${round(contentScore)})`,
              evidence: false,
            },
          ]
        : []),
    ];
  });
}
