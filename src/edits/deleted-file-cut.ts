import type { AnswerEnding } from './last-hunk-cut.js';
import type { Hunk } from './parse-unified-diff.js';
import { splitLines } from './split-lines.js';

/**
 * Why a file deletion whose hunks end the answer looks cut off, or undefined: its removed lines
 * stop before the end of the file. (The file would be deleted all the same, but whatever the
 * answer was going to say after it is lost.)
 */
export function deletedFileCut(
  hunks: readonly Hunk[],
  before: string,
  ending: AnswerEnding | undefined,
): string | undefined {
  if (!ending || !hunks.includes(ending.hunk)) return undefined;
  const removed = hunks.reduce((n, h) => n + h.lines.filter((l) => l.kind === '-').length, 0);
  const total = splitLines(before).lines.length;
  return removed < total
    ? `it deletes the file, but its removed lines stop after ${removed} of the file's ${total} lines`
    : undefined;
}
