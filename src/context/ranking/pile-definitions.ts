/**
 * Definition claims as points: per file and name, the best claim that the file defines it
 * (grep, or an import followed) or declares it (an option). A file that defines several of the
 * names counts more, not several times more: the k-th name (largest first) adds 1/k of its
 * points (a pasted config or a long trace names many things one file holds).
 */
import type { Contribution, DefinitionClaim } from './types.js';

export function pileDefinitions(claims: readonly DefinitionClaim[]): Contribution[] {
  const byFile = new Map<string, Map<string, DefinitionClaim>>();
  for (const claim of claims) {
    const names = byFile.get(claim.path) ?? new Map<string, DefinitionClaim>();
    byFile.set(claim.path, names);
    const known = names.get(claim.name);
    if (!known || known.points < claim.points) names.set(claim.name, claim);
  }
  return [...byFile].flatMap(([path, names]) =>
    [...names.values()]
      .sort((a, b) => b.points - a.points)
      .map((d, k) => ({
        path,
        kind: d.kind,
        points: d.points / (k + 1),
        reason: d.reason,
        ...(d.line !== undefined && { lines: [d.line] }),
      })),
  );
}
