/**
 * Which hits of a grep say where something is. A test suite asserts its messages verbatim
 * (mypy's `test-data`, Django's tests): when more files than count as evidence hold one, the
 * few source files among them still say where it is raised or declared.
 */
import type { Hit } from '../grep-code.js';
import type { RankInputs } from './inputs.js';
import { LIMITS } from './weights.js';

export function tellingHits(inputs: RankInputs, hits: Hit[]): { hits: Hit[]; others: number } {
  if (hits.length <= LIMITS.maxHits) return { hits, others: 0 };
  const sources = hits.filter(inputs.isSource);
  return sources.length > 0 && sources.length <= LIMITS.maxHits
    ? { hits: sources, others: hits.length - sources.length }
    : { hits: [], others: 0 };
}

/** The end of a reason that says how many other files hold it too. */
export const alsoIn = (others: number): string =>
  others > 0 ? `, as do ${others} test or other file${others === 1 ? '' : 's'}` : '';
