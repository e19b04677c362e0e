/**
 * `/autofix [instructions]`: the comment must start with the command (leading blank lines
 * allowed), followed by whitespace or nothing. The rest of that line and every following line are
 * the instructions (still unsanitized here).
 */
export function parseCommand(body: string, command: string): string | undefined {
  const text = body.replace(/^\s+/, '');
  if (!text.toLowerCase().startsWith(command.toLowerCase())) return undefined;
  const rest = text.slice(command.length);
  if (rest !== '' && !/^\s/.test(rest)) return undefined; // `/autofixed` is not the command
  return rest.trim();
}
