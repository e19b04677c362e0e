/**
 * `Class.method` (`definesMember`): the file whose class `Class` defines `method` (below it) is
 * where it lives, whichever other files define a `method` or subclass `Class`.
 */
import { definitionPattern, lineAt, matchNear } from '../../grep-code.js';
import type { RankInputs } from '../inputs.js';
import type { DefinitionClaim } from '../types.js';
import { LIMITS, WEIGHTS } from '../weights.js';

/** The files whose class `cls` has `member` indented under it, with the member's line. */
function memberOwners(
  inputs: RankInputs,
  cls: string,
  member: string,
): { path: string; line: number }[] {
  const classRe = new RegExp(`^[ \\t]*(?:export\\s+)?(?:default\\s+)?class\\s+${cls}\\b`, 'm');
  const memberRe = definitionPattern(member);
  const owners: { path: string; line: number }[] = [];
  const withMember = new Set(inputs.holders(member));
  for (const f of inputs.holders(cls)) {
    if (!withMember.has(f)) continue;
    const c = matchNear(f.content, cls, classRe);
    if (c < 0) continue;
    const m = matchNear(f.content, member, memberRe, f.content.lastIndexOf('\n', c) + 1);
    // A method: indented under the class, not a top-level function further down.
    const lineStart = m < 0 ? -1 : f.content.lastIndexOf('\n', m) + 1;
    if (m >= 0 && /^[ \t]+/.test(f.content.slice(lineStart, lineStart + 1)))
      owners.push({ path: f.path, line: lineAt(f.content, m) });
  }
  return owners;
}

export function classMemberEvidence(inputs: RankInputs): DefinitionClaim[] {
  return inputs.located.classMembers.flatMap(({ cls, member }) => {
    const factor = inputs.titleNames.has(member) ? WEIGHTS.titleName : 1;
    const owners = memberOwners(inputs, cls, member);
    if (owners.length === 0 || owners.length > LIMITS.memberOwners) return [];
    return owners.map((o) => ({
      path: o.path,
      name: `${cls}.${member}`,
      kind: 'definesMember',
      points: (WEIGHTS.definesMember * factor) / owners.length,
      reason: `defines \`${cls}.${member}\``,
      line: o.line,
    }));
  });
}
