/**
 * The ranking's top files with their reasons, bounded for a stage's output (it travels in the run
 * record and is shown on the run page): at most 20 files, 5 reasons each, 200 characters a reason.
 */
import type { RankedFileNote } from '../contracts.js';
import type { RankedFile } from './ranking/types.js';

export const MAX_RANKED_NOTES = 20;
const MAX_REASONS = 5;
const MAX_REASON_CHARS = 200;

export function rankedNotes(
  files: readonly Pick<RankedFile, 'path' | 'reasons'>[],
): RankedFileNote[] {
  return files.slice(0, MAX_RANKED_NOTES).map((f) => ({
    path: f.path,
    reasons: f.reasons
      .slice(0, MAX_REASONS)
      .map((r) => (r.length > MAX_REASON_CHARS ? `${r.slice(0, MAX_REASON_CHARS - 1)}…` : r)),
  }));
}
