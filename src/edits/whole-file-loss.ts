import { diffArrays } from 'diff';
import type { ChangeLine } from './elided-code.js';
import { changesBalance, elidedCode } from './elided-code.js';
import { openAtEnd } from './open-at-end.js';

/** Code a whole new version of a file would lose: a placeholder, or a tail that never came. */
export type WholeFileLoss =
  | { kind: 'elided'; marker: string; line: number; lost: string[] }
  | { kind: 'cut'; why: string; line: number };

const linesOf = (text: string): string[] => {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
};

/** The line diff of two versions as ` `/`-`/`+` lines, in order. */
function changeLines(before: readonly string[], after: readonly string[]): ChangeLine[] {
  return diffArrays([...before], [...after]).flatMap((part) =>
    part.value.map((text): ChangeLine => ({
      kind: part.added ? '+' : part.removed ? '-' : ' ',
      text,
    })),
  );
}

/**
 * Whether the new version stops where the old one goes on: its last changed region runs to the
 * end of the file and removes more lines than it adds, and its last line is the start of an old
 * line there (cut mid-line), or it lost the final newline, or it stops inside a bracket, string or
 * comment that the old version closes.
 */
function tailCut(before: string, after: string, lines: readonly ChangeLine[]): string | undefined {
  let from = lines.length;
  while (from > 0 && lines[from - 1]?.kind !== ' ') from--;
  const tail = lines.slice(from);
  const removed = tail.filter((l) => l.kind === '-').map((l) => l.text);
  const added = tail.filter((l) => l.kind === '+').map((l) => l.text);
  const dropped = removed.length - added.length;
  if (dropped <= 0) return undefined;
  const last = added[added.length - 1];
  const partial =
    last !== undefined &&
    last.trim().length >= 4 &&
    removed.some((l) => l.startsWith(last) && l.trim() !== last.trim());
  const lostNewline = before.endsWith('\n') && !after.endsWith('\n');
  const open = openAtEnd(linesOf(after)) && !openAtEnd(linesOf(before));
  if (!partial && !lostNewline && !open) return undefined;
  const how = partial
    ? 'its last line is the start of a line of the current file'
    : lostNewline
      ? 'it stops without the final newline the file has'
      : 'it stops inside a bracket, string or comment that the current file closes';
  return `it stops where the current file goes on (${dropped} line${dropped === 1 ? '' : 's'} shorter at its end), and ${how}`;
}

/**
 * What writing `after` over `before` would lose that its author did not mean to (pure): a
 * placeholder standing for code it does not keep (`elided-code.ts`, on the line diff of the two
 * versions), or a tail cut off. Undefined when neither.
 */
export function wholeFileLoss(before: string, after: string): WholeFileLoss | undefined {
  const lines = changeLines(linesOf(before), linesOf(after));
  const elided = elidedCode(lines, { unbalanced: changesBalance(lines) });
  const newLine = (index: number): number =>
    lines.slice(0, index + 1).filter((l) => l.kind !== '-').length;
  if (elided)
    return {
      kind: 'elided',
      marker: elided.marker,
      lost: elided.lost,
      line: newLine(elided.index),
    };
  const why = tailCut(before, after, lines);
  return why === undefined ? undefined : { kind: 'cut', why, line: newLine(lines.length - 1) };
}
