/**
 * The files that declare a command-line option the issue names (`declaresOption`). Evidence
 * that piles up (a pasted command line of eight options) counts 1, 1/2, 1/3… per file: a
 * definition claim.
 */
import { findOption } from '../../grep-code.js';
import type { RankInputs } from '../inputs.js';
import { alsoIn, tellingHits } from '../telling-hits.js';
import type { DefinitionClaim } from '../types.js';
import { WEIGHTS } from '../weights.js';

export function declaresOptionEvidence(inputs: RankInputs): DefinitionClaim[] {
  return inputs.refs.options.flatMap((option) => {
    const { hits, others } = tellingHits(inputs, findOption(inputs.code, option));
    const n = inputs.sourceCount(hits);
    return hits.map((h) => ({
      path: h.path,
      name: option,
      kind: 'declaresOption',
      points: WEIGHTS.declaresOption / n,
      reason: `declares option ${option}${alsoIn(others)}`,
      line: h.line,
    }));
  });
}
