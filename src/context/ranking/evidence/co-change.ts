/**
 * Files that change together (`coChange`): the files the recent commits (`RepoMap.changes`)
 * changed along with the best source files get a share of the best file's score, in proportion to
 * how often they did — each commit's weight (the better the source files it changed, the more)
 * split among its files, the file changed with them most getting the whole share. A fix often
 * touches the file an issue is about and another the words do not reach: the registry of a new
 * module, the constants of a parser, the server beside its router. A commit of more than
 * `LIMITS.coChangeFiles` files (a rename, a formatting pass) says nothing. It reads the scores of
 * the other evidence, so the fold asks for it with the import hop; the share is demoted as the
 * file it goes to. No structural evidence.
 */
import { round } from '../format.js';
import type { RankInputs } from '../inputs.js';
import type { Contribution } from '../types.js';
import { LIMITS, WEIGHTS } from '../weights.js';
import type { Scored } from './import-hop.js';

interface Together {
  weight: number;
  /** Commits shared with each of the best files. */
  withFile: Map<string, number>;
}

/** For each file changed with one of `top`, how much and with which. */
function changedWith(inputs: RankInputs, top: readonly Scored[]): Map<string, Together> {
  // The best file weighs most: 1, 1/2, 1/3… by rank.
  const seeds = new Map(top.map((t, i) => [t.path, 1 / (1 + i)]));
  const out = new Map<string, Together>();
  for (const files of inputs.map.changes) {
    if (files.length > LIMITS.coChangeFiles) continue;
    const inCommit = files.filter((f) => seeds.has(f));
    const weight = inCommit.reduce((sum, f) => sum + seeds.get(f)!, 0);
    if (weight === 0) continue;
    for (const f of files) {
      if (seeds.has(f)) continue;
      const known = out.get(f) ?? { weight: 0, withFile: new Map<string, number>() };
      known.weight += weight / files.length;
      for (const s of inCommit) known.withFile.set(s, (known.withFile.get(s) ?? 0) + 1);
      out.set(f, known);
    }
  }
  return out;
}

/**
 * `top`: the best source files, best first, with their scores; `factorOf`: the demotion of a
 * file of the map (undefined for any other path: a file the history names that the map has not).
 */
export function coChangeEvidence(
  inputs: RankInputs,
  top: readonly Scored[],
  factorOf: (path: string) => number | undefined,
): Contribution[] {
  const best = top[0];
  if (!best || inputs.map.changes.length === 0) return [];
  const together = changedWith(inputs, top);
  const most = Math.max(0, ...[...together.values()].map((t) => t.weight));
  if (most === 0) return [];
  return [...together].flatMap(([path, t]): Contribution[] => {
    const factor = factorOf(path);
    if (factor === undefined) return [];
    const points = ((best.score * WEIGHTS.coChange * t.weight) / most) * factor;
    const [withPath, commits] = [...t.withFile].sort((a, b) => b[1] - a[1])[0]!;
    return [
      {
        path,
        kind: 'coChange',
        points,
        reason: `changed with ${withPath} in ${commits} of the last ${inputs.map.changes.length} commits (+${round(points)})`,
        evidence: false,
      },
    ];
  });
}
