/**
 * Names the issue uses that are file or folder names, not the project's own package
 * (`pathMatchesName`: `weekOfYear` → `src/plugin/weekOfYear/index.js`). A symbol or a tag of
 * the title (`` `to_sql` `` → `io/sql.py`, `[Globo]`) that is the name of exactly one part says
 * where, the way a title's symbol says what, and counts double.
 */
import type { RankInputs } from '../inputs.js';
import { askedOnce, entryWeight, onePart, ownParts } from '../named-parts.js';
import type { Contribution } from '../types.js';
import { LIMITS, WEIGHTS } from '../weights.js';

export function pathMatchesNameEvidence(inputs: RankInputs): Contribution[] {
  const titleParts = new Set([...inputs.titleNames, ...inputs.tags]);
  return askedOnce(inputs.refs.names).flatMap((name) => {
    const matches = ownParts(inputs, name);
    const files = matches.filter((m) => m.how === 'file').length;
    if (matches.length === 0 || files > LIMITS.maxHits) return [];
    const share = Math.max(1, files) / (inputs.codeOnly.has(name) ? WEIGHTS.codeOnly : 1);
    const inTitle = titleParts.has(name) && onePart(matches);
    const factor = inTitle ? WEIGHTS.titlePart : 1;
    return matches.map((m) => ({
      path: m.path,
      kind: 'pathMatchesName',
      points: (WEIGHTS.pathMatchesName * entryWeight(inputs, m) * factor) / share,
      reason: `path matches \`${name}\`${inTitle ? ', named in the title' : ''}`,
    }));
  });
}
