/**
 * Terms for BM25: identifiers split at camelCase, snake_case and digits, lower-cased and lightly
 * stemmed, plus the whole identifier, so `parseConfigFile` matches "parse", "config file" and
 * `parseconfigfile`. Pure.
 */

const STOPWORDS = new Set(
  (
    'a an and are as at be but by can could did do does for from had has have how i if in into is ' +
    'it its me my no not of on or our should so than that the their them then there these this ' +
    'those to was we were what when where which while who why will with would you your ' +
    // code noise that every file has
    'const let var function return import export from default new true false null undefined ' +
    'self def class public private static void int string'
  ).split(' '),
);

const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/g;

function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** `parseHTTPResponse2` → `parse`, `http`, `response`. */
export function identifierParts(identifier: string): string[] {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z]+/)
    .map((p) => p.toLowerCase())
    .filter((p) => p.length >= 2);
}

/** Identifier → terms; code repeats its identifiers, so most lookups hit. */
const memo = new Map<string, readonly string[]>();

function termsOf(raw: string): readonly string[] {
  const known = memo.get(raw);
  if (known) return known;
  const parts = identifierParts(raw);
  const terms = parts.filter((p) => !STOPWORDS.has(p)).map(stem);
  const whole = raw.toLowerCase().replace(/_/g, '');
  if (parts.length > 1 && !STOPWORDS.has(whole)) terms.push(whole);
  if (memo.size >= 200_000) memo.clear();
  memo.set(raw, terms);
  return terms;
}

export function splitWords(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(IDENTIFIER)) {
    const raw = match[0];
    if (raw.length < 2 || raw.length > 60) continue;
    for (const term of termsOf(raw.includes('$') ? raw.replace(/\$/g, '') : raw)) out.push(term);
  }
  return out;
}

export interface TermCounts {
  /** Occurrences of each kept term. */
  counts: Map<string, number>;
  /** All terms of the text (what `splitWords(text).length` would be). */
  length: number;
}

/** Per identifier: how many terms it makes and which of them are kept. */
export type TermCache = Map<string, { length: number; kept: readonly string[] }>;

/**
 * `splitWords` counted rather than listed, keeping only the terms in `keep`: one regex pass and
 * one cache lookup per identifier. Pass the same `cache` for every document of one query.
 */
export function termCounts(
  text: string,
  keep: ReadonlySet<string>,
  cache: TermCache = new Map(),
): TermCounts {
  const counts = new Map<string, number>();
  let length = 0;
  const re = new RegExp(IDENTIFIER.source, 'g');
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const word = m[0];
    if (word.length < 2 || word.length > 60) continue;
    let known = cache.get(word);
    if (!known) {
      const terms = termsOf(word.includes('$') ? word.replace(/\$/g, '') : word);
      known = { length: terms.length, kept: terms.filter((t) => keep.has(t)) };
      cache.set(word, known);
    }
    length += known.length;
    for (const t of known.kept) counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  return { counts, length };
}
