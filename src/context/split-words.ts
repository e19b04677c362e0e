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
