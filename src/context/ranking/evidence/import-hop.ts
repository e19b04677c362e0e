/**
 * One hop through the code (`importHop`): the imports and importers of the best source files
 * get a share of the file's score (shared by the square root of how many there are), each file
 * its best share. It reads the scores of the other evidence, so the fold asks for it last; the
 * share is demoted as the file it goes to. No structural evidence.
 */
import { importGraph } from '../../code-graph.js';
import { round } from '../format.js';
import type { RankInputs } from '../inputs.js';
import type { Contribution } from '../types.js';
import { WEIGHTS } from '../weights.js';

export interface Scored {
  path: string;
  score: number;
}

/** For each file, the best share it gets from one of `top`, and why. */
function bestShares(
  inputs: RankInputs,
  top: readonly Scored[],
): Map<string, { points: number; reason: string }> {
  const graph = importGraph(
    inputs.map.files,
    top.map((t) => t.path),
    inputs.options.importSpecs,
  );
  const importers = new Map<string, string[]>();
  for (const [from, tos] of graph)
    for (const to of tos) importers.set(to, [...(importers.get(to) ?? []), from]);
  const bonus = new Map<string, { points: number; reason: string }>();
  for (const t of top) {
    const out = [...(graph.get(t.path) ?? [])];
    const into = importers.get(t.path) ?? [];
    const give = (path: string, share: number, reason: string): void => {
      const points = (t.score * WEIGHTS.importHop) / Math.sqrt(share);
      const known = bonus.get(path);
      if (!known || known.points < points) bonus.set(path, { points, reason });
    };
    for (const p of out) give(p, out.length, `imported by ${t.path}`);
    for (const p of into)
      give(
        p,
        into.length,
        inputs.kinds.get(p) === 'test' ? `test that exercises ${t.path}` : `imports ${t.path}`,
      );
  }
  return bonus;
}

/**
 * `top`: the best source files, best first, with their scores; `factorOf`: the demotion of a
 * file of the map (undefined for any other path).
 */
export function importHopEvidence(
  inputs: RankInputs,
  top: readonly Scored[],
  factorOf: (path: string) => number | undefined,
): Contribution[] {
  if (top.length === 0) return [];
  return [...bestShares(inputs, top)].flatMap(([path, { points, reason }]): Contribution[] => {
    const factor = factorOf(path);
    if (factor === undefined) return [];
    return [
      {
        path,
        kind: 'importHop',
        points: points * factor,
        reason: `${reason} (+${round(points * factor)})`,
        evidence: false,
      },
    ];
  });
}
