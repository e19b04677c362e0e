/**
 * Whether `lines` stop inside something a complete text closes: more brackets opened than closed
 * (outside string literals and line comments), or a string literal, a `"""`/`'''` block or a
 * `/* … *\/` comment still open. A rough scan for any C-like or Python-like language, used as
 * evidence that a text was cut off, never as proof that it is complete. `base` is subtracted from
 * the bracket count (the lines a change replaces may open brackets too).
 */
export function openAtEnd(lines: readonly string[], base: readonly string[] = []): boolean {
  const end = scan(lines);
  return end.brackets > scan(base).brackets || end.literal;
}

function scan(lines: readonly string[]): { brackets: number; literal: boolean } {
  let brackets = 0;
  let block: string | undefined;
  let quote: string | undefined;
  for (const line of lines) {
    quote = undefined;
    for (let i = 0; i < line.length; i++) {
      const c = line[i] ?? '';
      if (block !== undefined) {
        if (line.startsWith(block, i)) {
          i += block.length - 1;
          block = undefined;
        }
        continue;
      }
      if (quote !== undefined) {
        if (c === '\\') i++;
        else if (c === quote) quote = undefined;
        continue;
      }
      const three = line.slice(i, i + 3);
      if (three === '"""' || three === "'''") {
        block = three;
        i += 2;
      } else if (c === '/' && line[i + 1] === '*') {
        block = '*/';
        i++;
      } else if (c === '"' || c === '`' || (c === "'" && !/[\p{L}\p{N}]/u.test(line[i - 1] ?? '')))
        quote = c; // an apostrophe after a letter (`don't`) opens nothing
      else if (c === '/' && line[i + 1] === '/') break;
      else if (c === '#' && (i === 0 || /\s/.test(line[i - 1] ?? ''))) break;
      else if (c === '(' || c === '[' || c === '{') brackets++;
      else if (c === ')' || c === ']' || c === '}') brackets--;
    }
  }
  return { brackets, literal: block !== undefined || quote !== undefined };
}
