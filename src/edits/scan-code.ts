/**
 * Brackets opened minus brackets closed over `lines`, outside string literals and line comments,
 * and whether the text stops inside a string literal, a `"""`/`'''` block or a `/* … *\/`
 * comment. A rough scan for any C-like or Python-like language (`open-at-end.ts`,
 * `elided-code.ts`): evidence, never proof.
 */
export function scanCode(lines: readonly string[]): { brackets: number; literal: boolean } {
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
