/** The modules that hold a message the issue quotes (`raisesMessage`), a part of it for half. */
import { findMessage } from '../../grep-code.js';
import { short } from '../format.js';
import type { RankInputs } from '../inputs.js';
import { alsoIn, tellingHits } from '../telling-hits.js';
import type { Contribution } from '../types.js';
import { WEIGHTS } from '../weights.js';

export function raisesMessageEvidence(inputs: RankInputs): Contribution[] {
  return inputs.refs.messages.flatMap((message) => {
    const { hits, others } = tellingHits(inputs, findMessage(inputs.code, message));
    const n = inputs.sourceCount(hits);
    return hits.map((h) => ({
      path: h.path,
      kind: 'raisesMessage',
      points: (WEIGHTS.raisesMessage * (h.partial ? WEIGHTS.partialMessage : 1)) / n,
      reason: `holds ${h.partial ? 'part of ' : ''}the quoted message "${short(message)}"${alsoIn(others)}`,
      lines: [h.line],
    }));
  });
}
