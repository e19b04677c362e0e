/**
 * A plain title word that is the name of one part (`titleWord`: `SSM` → `services/ssm/`,
 * `fish` → `shells/fish.py`): half a name's weight, and nothing when it names several parts.
 * Not a code-shaped name ("Item Filters"): those are `pathMatchesName`'s, asked first.
 */
import type { RankInputs } from '../inputs.js';
import { askedOnce, entryWeight, onePart, ownParts } from '../named-parts.js';
import type { Contribution } from '../types.js';
import { WEIGHTS } from '../weights.js';

export function titleWordEvidence(inputs: RankInputs): Contribution[] {
  return askedOnce(inputs.refs.titleWords, inputs.refs.names).flatMap((word) => {
    const matches = ownParts(inputs, word);
    if (!onePart(matches)) return [];
    return matches.map((m) => ({
      path: m.path,
      kind: 'titleWord',
      points: WEIGHTS.pathMatchesName * WEIGHTS.titleWord * entryWeight(inputs, m),
      reason: `path matches the title's \`${word}\``,
    }));
  });
}
