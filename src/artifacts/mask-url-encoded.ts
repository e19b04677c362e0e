/**
 * Percent-encoding hides a secret from a plain search: `encodeURIComponent`, every byte as `%XX`
 * (upper or lower case), `+` for a space, or any mix. Rather than spell out every encoding of
 * every secret, each whitespace-free run that contains an escape is decoded once and searched;
 * a run that holds a secret is masked whole.
 */

const TRIGGER = /%[0-9A-Fa-f]{2}/g;
const TRIGGER_OR_PLUS = /%[0-9A-Fa-f]{2}|\+/g;

const PERCENT = 0x25;
const PLUS = 0x2b;

function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

function percentDecode(run: string, plusIsSpace: boolean): string {
  const bytes = Buffer.from(run, 'utf8');
  const out = Buffer.alloc(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    const high = byte === PERCENT ? hexValue(bytes[i + 1]) : -1;
    const low = high >= 0 ? hexValue(bytes[i + 2]) : -1;
    if (low >= 0) {
      out[n++] = high * 16 + low;
      i += 2;
    } else {
      out[n++] = byte === PLUS && plusIsSpace ? 0x20 : byte;
    }
  }
  return out.subarray(0, n).toString('utf8');
}

export interface UrlEncodedOptions {
  /** True when the decoded text contains a secret. */
  holdsSecret: (decoded: string) => boolean;
  /** Also decode runs with `+` but no `%XX` (form encoding of a secret with spaces). */
  plusForSpace: boolean;
  marker: string;
}

/** The whitespace-free runs [start, end) of `text` that decode to a secret. */
export function findUrlEncoded(
  text: string,
  options: Omit<UrlEncodedOptions, 'marker'>,
): { start: number; end: number }[] {
  if (!text.includes('%') && !(options.plusForSpace && text.includes('+'))) return [];
  const trigger = options.plusForSpace ? TRIGGER_OR_PLUS : TRIGGER;
  const runs: { start: number; end: number }[] = [];
  let last = 0;
  for (const match of text.matchAll(trigger)) {
    if (match.index < last) continue; // inside a run already handled
    let start = match.index;
    while (start > last && !/\s/.test(text[start - 1]!)) start--;
    let end = match.index + match[0].length;
    while (end < text.length && !/\s/.test(text[end]!)) end++;
    const run = text.slice(start, end);
    const holds =
      options.holdsSecret(percentDecode(run, true)) ||
      options.holdsSecret(percentDecode(run, false));
    if (holds) runs.push({ start, end });
    last = end;
  }
  return runs;
}

export function maskUrlEncoded(text: string, options: UrlEncodedOptions): string {
  let out = '';
  let last = 0;
  for (const run of findUrlEncoded(text, options)) {
    out += text.slice(last, run.start) + options.marker;
    last = run.end;
  }
  return out + text.slice(last);
}
