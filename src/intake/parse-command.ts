/**
 * `/autofix [instructions]`: the comment must start with the command (leading blank lines
 * allowed), followed by whitespace or nothing. The rest of that line and every following line are
 * the instructions (still unsanitized here).
 *
 * "Starts with" is judged the way a Markdown renderer reads the comment: the command counts only
 * as the first words of a paragraph. Four columns of indentation (or a tab, which reaches them)
 * make an indented code block, and a fence, a blockquote or an HTML comment starts with its own
 * marker, so a command quoted inside any of them never starts a run.
 */
const BLANK_LINE = /^[ \t]*$/;
/** Up to three spaces keep a line a paragraph; CommonMark expands a tab to the next 4th column. */
const PARAGRAPH_INDENT = /^ {0,3}/;

export function parseCommand(body: string, command: string): string | undefined {
  const lines = body.split(/\r\n|\r|\n/);
  const first = lines.findIndex((line) => !BLANK_LINE.test(line));
  if (first === -1) return undefined;
  const line = lines[first]!;
  const text = line.slice(PARAGRAPH_INDENT.exec(line)![0].length);
  if (/^[ \t]/.test(text)) return undefined; // an indented code block
  if (text.slice(0, command.length).toLowerCase() !== command.toLowerCase()) return undefined;
  const rest = [text.slice(command.length), ...lines.slice(first + 1)].join('\n');
  if (rest !== '' && !/^\s/.test(rest)) return undefined; // `/autofixed` is not the command
  return rest.trim();
}
