/**
 * The files that define the symbols the issue names (`definesIdentifier`): a versioned name
 * defined nowhere (`PersonName3`) by its unversioned one, for half; a name defined nowhere by
 * the files that use it as a key, an instance attribute or a parameter (`usesName`: a setting
 * read by `get_option('scp_if_ssh')`, `self.batch_size = …`, `def fit(X, sample_weight=None)`).
 * An exception type counts for less, a name of the title for more, a name only the issue's
 * code blocks hold for less.
 */
import { normaliseName } from '../../code-graph.js';
import { findDefinitions, findUses, type Hit } from '../../grep-code.js';
import type { RankInputs } from '../inputs.js';
import { isExceptionType, unversioned } from '../names-to-locate.js';
import type { DefinitionClaim, EvidenceKind } from '../types.js';
import { LIMITS, WEIGHTS } from '../weights.js';

interface Definers {
  hits: Hit[];
  /** The name defined (the issue's, or its unversioned one). */
  name: string;
  kind: EvidenceKind;
  points: number;
  factor: number;
  reason: string;
}

/** `id`'s definitions, or its unversioned name's when it has none; too many: the source's. */
function definitionsOf(inputs: RankInputs, id: string, idFactor: number): Definers {
  const { holders, isSource } = inputs;
  let hits = findDefinitions(holders(id), id, LIMITS.maxHits);
  let name = id;
  let reason = `defines \`${id}\``;
  let factor = idFactor;
  const base = unversioned(id);
  if (hits.length === 0 && base !== undefined && !inputs.located.named.includes(base)) {
    hits = findDefinitions(holders(base), base, LIMITS.maxHits);
    name = base;
    reason = `defines \`${base}\` (the issue's \`${id}\` is defined nowhere)`;
    factor *= WEIGHTS.unversioned;
  }
  // Defined in too many files: the source files among them, when they are few (tests and
  // fixtures define their own `Article`, `Request`, `Config`).
  if (hits.length > LIMITS.maxHits)
    hits = findDefinitions(holders(name).filter(isSource), name, LIMITS.maxHits);
  return {
    hits,
    name,
    kind: 'definesIdentifier',
    points: WEIGHTS.definesIdentifier,
    factor,
    reason,
  };
}

/** The files that use `id` as a key, an attribute or a parameter; too many: the source's. */
function usesOf(inputs: RankInputs, id: string, idFactor: number): Definers {
  let hits = findUses(inputs.holders(id), id, LIMITS.maxHits);
  if (hits.length > LIMITS.maxHits)
    hits = findUses(inputs.holders(id).filter(inputs.isSource), id, LIMITS.maxHits);
  return {
    hits,
    name: id,
    kind: 'usesName',
    points: WEIGHTS.usesName,
    factor: idFactor,
    reason: `uses \`${id}\` as a key, attribute or parameter (nothing defines it)`,
  };
}

export function definedNameEvidence(inputs: RankInputs): DefinitionClaim[] {
  const { titleNames, codeOnly } = inputs;
  const projectNames = new Set(
    [...inputs.projectDirs].map((d) => normaliseName(d.slice(d.lastIndexOf('/') + 1))),
  );
  return inputs.located.named.flatMap((id) => {
    if (projectNames.has(normaliseName(id))) return [];
    const idFactor =
      (isExceptionType(id) ? WEIGHTS.exceptionType : 1) *
      (titleNames.has(id) ? WEIGHTS.titleName : 1) *
      (codeOnly.has(id) ? WEIGHTS.codeOnly : 1);
    let found = definitionsOf(inputs, id, idFactor);
    if (found.hits.length > LIMITS.maxHits) return []; // too common to tell anything
    if (found.hits.length === 0) found = usesOf(inputs, id, idFactor);
    const { hits, name, kind, points, factor, reason } = found;
    if (hits.length === 0 || hits.length > LIMITS.maxHits) return [];
    const n = inputs.sourceCount(hits);
    return hits.map((d) => ({
      path: d.path,
      name,
      kind,
      points: (points * factor) / n,
      reason,
      line: d.line,
    }));
  });
}
