/**
 * Splits Markdown prose into what GitHub will show as code and what it will read as Markdown, so
 * the neutralizer rewrites only the latter and what it wraps stays wrapped. The split is made to
 * hold in the output whatever GitHub's paragraph boundaries are: a code span is kept only when it
 * opens and closes on one line; every other backtick is escaped; and a wrapped token never
 * touches a backtick or an odd backslash that would re-pair or unescape it.
 */

/** `text` is Markdown the passes may rewrite; `raw` is emitted verbatim (code, escapes). */
export interface Token {
  kind: 'text' | 'raw';
  text: string;
}

/** Index of the next backtick run of exactly `length` before the end of the line, or -1. */
function closingRun(text: string, from: number, length: number): number {
  let i = from;
  while (i < text.length && text[i] !== '\n') {
    if (text[i] !== '`') {
      i++;
      continue;
    }
    let end = i;
    while (text[end] === '`') end++;
    if (end - i === length) return i;
    i = end;
  }
  return -1;
}

export function tokenizeInline(text: string): Token[] {
  const tokens: Token[] = [];
  let plain = '';
  const flush = (): void => {
    if (plain) tokens.push({ kind: 'text', text: plain });
    plain = '';
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\\') {
      const next = text[i + 1];
      if (next === '`') {
        flush();
        tokens.push({ kind: 'raw', text: '\\`' });
      } else {
        // An escape pair stays together, so `\\` never escapes what follows it.
        plain += next === undefined || next === '\n' ? c : c + next;
      }
      i += next === undefined || next === '\n' ? 1 : 2;
      continue;
    }
    if (c !== '`') {
      plain += c;
      i++;
      continue;
    }
    let end = i;
    while (text[end] === '`') end++;
    const length = end - i;
    const close = closingRun(text, end, length);
    flush();
    if (close >= 0) {
      tokens.push({ kind: 'raw', text: text.slice(i, close + length) });
      i = close + length;
    } else {
      tokens.push({ kind: 'raw', text: '\\`'.repeat(length) });
      i = end;
    }
  }
  flush();
  return tokens;
}

function endsWithOddBackslashes(text: string): boolean {
  let n = 0;
  while (n < text.length && text[text.length - 1 - n] === '\\') n++;
  return n % 2 === 1;
}

export function joinTokens(tokens: readonly Token[]): string {
  let out = '';
  for (const token of tokens) {
    // `\` + "`code`" would escape the opening backtick; "`a`" + "`b`" would merge the runs.
    const apart =
      token.kind === 'raw' &&
      (endsWithOddBackslashes(out) || (out.endsWith('`') && token.text.startsWith('`')));
    out += (apart ? ' ' : '') + token.text;
  }
  return out;
}
