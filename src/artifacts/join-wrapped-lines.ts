/**
 * `base64` wraps its output at 76 columns, PEM at 64, `xxd -p` at 60, and JSON shows those line
 * breaks as `\n`: an encoded secret may be split anywhere. This joins lines across a line break
 * (real or escaped, with any indentation after it) between two characters of the base64/hex
 * alphabets when the text looks wrapped — the line before is nothing but such characters, or both
 * sides are long runs of them — and maps positions in the joined text back to the original. A
 * short word ending the line before (`… /proc/$PPID/environ`) is not joined to the blob after it.
 */

import { isEncodedChar } from './encoded-char.js';

const WRAP = /(?<=[A-Za-z0-9+/=_-])(?:\r?\n|\\r\\n|\\n)[ \t]*(?=[A-Za-z0-9+/=_-])/g;

/** A run this long on both sides of a break is taken for a wrapped blob even with a prefix. */
const LONG_RUN = 16;

export interface JoinedText {
  text: string;
  /** Index in the original text of the character at `index` in the joined text. */
  originalIndex(index: number): number;
}

function runBefore(text: string, end: number): number {
  let start = end;
  while (start > 0 && isEncodedChar(text.charCodeAt(start - 1))) start--;
  return start;
}

function runAfter(text: string, start: number): number {
  let end = start;
  while (end < text.length && isEncodedChar(text.charCodeAt(end))) end++;
  return end;
}

/** True when `at` starts a line: after indentation, a line break or an escaped `\n`. */
function startsLine(text: string, at: number): boolean {
  if (text[at] === 'n' && text[at - 1] === '\\') return true; // the `n` of an escaped `\n`
  let i = at;
  while (i > 0 && (text[i - 1] === ' ' || text[i - 1] === '\t')) i--;
  return i === 0 || text[i - 1] === '\n' || text[i - 1] === '\r';
}

function endsLine(text: string, at: number): boolean {
  return at >= text.length || /^(?:\r|\n|\\[rn])/.test(text.slice(at, at + 2));
}

function looksWrapped(text: string, breakAt: number, after: number): boolean {
  const lineStart = runBefore(text, breakAt);
  if (startsLine(text, lineStart)) return true;
  const nextEnd = runAfter(text, after);
  return (
    breakAt - lineStart >= LONG_RUN && (nextEnd - after >= LONG_RUN || endsLine(text, nextEnd))
  );
}

export function joinWrappedLines(text: string): JoinedText {
  // Where each removed break sat in the joined text, and how much was removed up to there.
  const at: number[] = [];
  const removedUpTo: number[] = [];
  let removed = 0;
  const joined = text.replace(WRAP, (wrap: string, offset: number) => {
    if (!looksWrapped(text, offset, offset + wrap.length)) return wrap;
    removed += wrap.length;
    at.push(offset + wrap.length - removed);
    removedUpTo.push(removed);
    return '';
  });
  if (at.length === 0) return { text, originalIndex: (index) => index };
  return {
    text: joined,
    originalIndex(index) {
      // The last removal at or before `index` tells how far the original is ahead.
      let lo = 0;
      let hi = at.length - 1;
      let shift = 0;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (at[mid]! <= index) {
          shift = removedUpTo[mid]!;
          lo = mid + 1;
        } else {
          hi = mid - 1;
        }
      }
      return index + shift;
    },
  };
}
