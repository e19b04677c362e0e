import { scanCode } from './scan-code.js';

/**
 * Whether `lines` stop inside something a complete text closes: more brackets opened than closed
 * (outside string literals and line comments), or a string literal, a `"""`/`'''` block or a
 * `/* … *\/` comment still open. A rough scan for any C-like or Python-like language, used as
 * evidence that a text was cut off, never as proof that it is complete. `base` is subtracted from
 * the bracket count (the lines a change replaces may open brackets too).
 */
export function openAtEnd(lines: readonly string[], base: readonly string[] = []): boolean {
  const end = scanCode(lines);
  return end.brackets > scanCode(base).brackets || end.literal;
}
