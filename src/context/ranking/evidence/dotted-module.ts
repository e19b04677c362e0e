/**
 * Dotted module paths the issue names (`dottedModule`: `pkg.mod` → `pkg/mod.py`), double when
 * the title names the one module. A module counts once, however many of its names the issue
 * dots into; an exception type's module counts for nothing (where it is raised matters).
 */
import { filesForDotted } from '../../code-graph.js';
import { titleOf } from '../../issue-text.js';
import type { RankInputs } from '../inputs.js';
import { mentionEvidence, mentionsByFile, type Mention } from '../mentions.js';
import { isExceptionType } from '../names-to-locate.js';
import type { Contribution } from '../types.js';
import { WEIGHTS } from '../weights.js';

function* moduleMentions(inputs: RankInputs): Generator<Mention> {
  const title = titleOf(inputs.issueText);
  for (const dotted of inputs.refs.dotted) {
    if (isExceptionType(dotted)) continue;
    const hits = filesForDotted(inputs.paths, dotted);
    const inTitle = hits.length === 1 && title.includes(dotted);
    for (const path of hits)
      yield {
        path,
        kind: 'dottedModule',
        points: (WEIGHTS.dottedModule * (inTitle ? WEIGHTS.titlePart : 1)) / hits.length,
        reason: `module \`${dotted}\`${inTitle ? ', named in the title' : ''}`,
        line: undefined,
        named: true,
      };
  }
}

export const dottedModuleEvidence = (inputs: RankInputs): Contribution[] =>
  [...mentionsByFile(moduleMentions(inputs))].flatMap(([path, mention]) =>
    mentionEvidence(path, mention, mention.points),
  );
