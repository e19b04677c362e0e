/** One output line: `eol` is the line's own ending when it came from the file, absent when added. */
export interface OutputLine {
  text: string;
  eol?: string;
}

/**
 * Builds text from lines, keeping each file line's own ending, giving added lines the file's
 * dominant ending, and keeping the file's final-newline convention whatever moved to the end.
 */
export function joinLines(
  lines: readonly OutputLine[],
  eol: string,
  finalNewline: boolean,
): string {
  let out = '';
  lines.forEach((line, i) => {
    const own = line.eol === undefined || line.eol === '' ? eol : line.eol;
    out += line.text + (i === lines.length - 1 && !finalNewline ? '' : own);
  });
  return out;
}
