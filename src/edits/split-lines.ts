/**
 * A file's text as lines plus everything needed to write it back byte for byte: each line's own
 * ending (files may mix them), the ending used for lines we add, and whether the file ends with a
 * newline. Diffs only ever change whole lines, so this is the unit the engine works in.
 */
export interface FileLines {
  /** Lines without their terminators. */
  lines: string[];
  /** Each line's own terminator: '\n', '\r\n', or '' for a last line without a final newline. */
  eols: string[];
  /** The ending most lines use; new lines get it so a CRLF file stays CRLF. */
  eol: '\n' | '\r\n';
  /** Whether the text ends with a line terminator (an empty file counts as yes). */
  finalNewline: boolean;
}

export function splitLines(text: string): FileLines {
  const lines: string[] = [];
  const eols: string[] = [];
  let crlf = 0;
  let lf = 0;
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    if (nl === -1) {
      lines.push(text.slice(start));
      eols.push('');
      break;
    }
    const cr = nl > start && text.charCodeAt(nl - 1) === 13;
    lines.push(text.slice(start, cr ? nl - 1 : nl));
    eols.push(cr ? '\r\n' : '\n');
    if (cr) crlf++;
    else lf++;
    start = nl + 1;
  }
  return {
    lines,
    eols,
    eol: crlf > lf ? '\r\n' : '\n',
    finalNewline: eols.length === 0 || eols[eols.length - 1] !== '',
  };
}
