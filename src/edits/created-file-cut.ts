import { hunkShape } from './hunk-shape.js';
import type { AnswerEnding } from './last-hunk-cut.js';
import { openAtEnd } from './open-at-end.js';
import type { Hunk } from './parse-unified-diff.js';

/**
 * Why a new file whose hunks end the answer looks cut off, or undefined. A new file has no
 * context to compare, so only its own text can tell: the header promised more lines and the text
 * stops mid-line or inside a bracket, string or comment; or, without counts, it stops mid-line
 * inside one. (Counts alone are no proof: models often get them wrong.)
 */
export function createdFileCut(hunks: readonly Hunk[], ending: AnswerEnding): string | undefined {
  if (!hunks.includes(ending.hunk)) return undefined;
  const shape = hunkShape(ending.hunk);
  const open = openAtEnd(hunks.flatMap((h) => h.lines.map((l) => l.text)));
  const where = ending.endsMidLine ? 'its last line stops mid-way' : 'it stops';
  if (shape.countsShort && (ending.endsMidLine || open))
    return `its header promises ${ending.hunk.newCount} lines, ${shape.newLines} arrived, and ${where}${open ? ' inside an open bracket, string or comment' : ''}`;
  if (ending.hunk.newCount === undefined && ending.endsMidLine && open)
    return `${where} inside an open bracket, string or comment`;
  return undefined;
}
