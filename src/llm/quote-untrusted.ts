/**
 * Puts text from outside the trust boundary (issue and comment text, build output) into a
 * prompt as quoted data. The delimiter carries an id derived from the text, so the text cannot
 * close its own quote, and any look-alike closing tag inside is defused.
 */
import { createHash } from 'node:crypto';

export function quoteUntrusted(label: string, text: string): string {
  const id = createHash('sha256').update(text).digest('hex').slice(0, 10);
  const body = text.replace(/<(\/?)untrusted-data/gi, '<$1untrusted_data');
  return `<untrusted-data source="${label}" id="${id}">\n${body}\n</untrusted-data id="${id}">`;
}

/** A markdown fence longer than any backtick run in `text`, so the text cannot end it early. */
export function fence(text: string, info = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${info}\n${text}${text.endsWith('\n') ? '' : '\n'}${ticks}`;
}
