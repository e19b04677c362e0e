import type { AnswerEnding } from './last-hunk-cut.js';
import type { Hunk } from './parse-unified-diff.js';
import { splitLines } from './split-lines.js';

/**
 * Why a file deletion whose hunks end the answer looks cut off, or undefined: its removed lines
 * stop before the end of the file, or its last one in the middle of the line. (The file would be deleted all the same, but whatever the
 * answer was going to say after it is lost.)
 */
export function deletedFileCut(
  hunks: readonly Hunk[],
  before: string,
  ending: AnswerEnding | undefined,
): string | undefined {
  if (!ending || !hunks.includes(ending.hunk)) return undefined;
  const removed = hunks.flatMap((h) => h.lines.filter((l) => l.kind === '-').map((l) => l.text));
  const file = splitLines(before).lines;
  if (removed.length < file.length)
    return `it deletes the file, but its removed lines stop after ${removed.length} of the file's ${file.length} lines`;
  const last = removed[removed.length - 1]?.trimEnd() ?? '';
  const there = file[removed.length - 1]?.trimEnd() ?? '';
  return ending.endsMidLine && there !== last && there.startsWith(last)
    ? 'it deletes the file, but its last removed line stops in the middle of the line'
    : undefined;
}
