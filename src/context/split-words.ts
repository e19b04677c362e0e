/**
 * Terms for BM25: identifiers split at camelCase, snake_case and digits, lower-cased and lightly
 * stemmed, plus the whole identifier, so `parseConfigFile` matches "parse", "config file" and
 * `parseconfigfile`. Pure.
 */
import { titleOf, visibleIssueText } from './issue-text.js';

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

const isUpperCode = (c: number): boolean => c >= 65 && c <= 90;
const isLowerCode = (c: number): boolean => c >= 97 && c <= 122;

/**
 * `parseHTTPResponse2` → `parse`, `http`, `response`: the runs of ASCII letters, cut where a
 * lower-case letter meets an upper-case one and before the last capital of an acronym followed
 * by lower case; lower-cased, parts shorter than two letters dropped. One pass, no regex: it runs
 * for every distinct identifier of a repository.
 */
export function identifierParts(identifier: string): string[] {
  const parts: string[] = [];
  let start = -1;
  const cut = (end: number): void => {
    if (start >= 0 && end - start >= 2) parts.push(identifier.slice(start, end).toLowerCase());
  };
  for (let j = 0; j <= identifier.length; j++) {
    const c = j < identifier.length ? identifier.charCodeAt(j) : 0;
    const upper = isUpperCode(c);
    if (!upper && !isLowerCode(c)) {
      cut(j);
      start = -1;
    } else if (start < 0) start = j;
    else if (upper) {
      const previous = identifier.charCodeAt(j - 1);
      if (
        isLowerCode(previous) ||
        (isUpperCode(previous) && isLowerCode(identifier.charCodeAt(j + 1)))
      ) {
        cut(j);
        start = j;
      }
    }
  }
  return parts;
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
  /** Occurrences of each query term. */
  counts: Map<string, number>;
  /** The document's length for BM25: how many identifiers it holds. */
  length: number;
}

/**
 * A query (an issue's text): its terms, and one pattern that finds, case-insensitively, a piece
 * of every identifier whose terms hold a query term. A term is found as itself (a plural stems to
 * it by dropping letters at the end: `refunds` holds `refund`, `entries` holds `entr`); a joined
 * term (`parseconfigfile`) as its first part, or when every part is a stopword (`isnot`) as its
 * parts with any `_`, `$` or digits between them (`isNot`, `is_not`, `IS__NOT`). A needle that
 * holds another is left out: the shorter finds it.
 */
export interface TermQuery {
  terms: readonly string[];
  /**
   * Each term's weight in the word-overlap score: a term of the title counts twice (the reporter
   * put it first), and a term the issue repeats counts more, up to about twice: `(k + 1) f / (k + f)`
   * for `f` occurrences, BM25's own saturation with k = 1.2 (1, 1.38, 1.57… for f = 1, 2, 3).
   */
  weights: ReadonlyMap<string, number>;
  keep: ReadonlySet<string>;
  /** Undefined when the query has no terms. */
  needles: RegExp | undefined;
}

/** A title term's weight (see `TermQuery.weights`). */
const TITLE_TERM = 2;
/** How fast a repeated term's weight saturates (see `TermQuery.weights`). */
const REPEAT_SATURATION = 1.2;

export function termQuery(issueText: string): TermQuery {
  const text = visibleIssueText(issueText);
  const words = splitWords(text);
  const terms = [...new Set(words)];
  const occurrences = new Map<string, number>();
  for (const w of words) occurrences.set(w, (occurrences.get(w) ?? 0) + 1);
  const titled = new Set(splitWords(titleOf(issueText)));
  const weights = new Map(
    terms.map((t) => {
      const f = occurrences.get(t) ?? 1;
      const repeated = ((REPEAT_SATURATION + 1) * f) / (REPEAT_SATURATION + f);
      return [t, repeated * (titled.has(t) ? TITLE_TERM : 1)];
    }),
  );
  const found = new Set<string>();
  for (const t of terms) found.add(t.length > 2 && t.endsWith('y') ? t.slice(0, -1) : t);
  // A name made only of stopwords (`isNot`) has no part among the terms, only its joined form
  // (`isnot`), which code may write with `_`, `$` or digits between the parts (`is_not`,
  // `IS__NOT`, `isNot_in`): its parts with any of those between them.
  const joined = new Set<string>();
  for (const match of text.matchAll(IDENTIFIER)) {
    const raw = match[0].replace(/\$/g, '');
    if (raw.length < 2 || raw.length > 60) continue;
    const parts = identifierParts(raw);
    if (parts.length > 1 && parts.every((p) => STOPWORDS.has(p)))
      joined.add(parts.join('[_$0-9]*'));
  }
  const all = [...found].sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  const needles: string[] = [];
  for (const n of all) if (!needles.some((m) => n.includes(m))) needles.push(n);
  // Literal needles are lower-case letters and digits: nothing to escape. A hit is only where to
  // look: the identifier around it is split and its terms kept only if they are the query's.
  const alternatives = [...needles, ...joined];
  return {
    terms,
    weights,
    keep: new Set(terms),
    needles: alternatives.length > 0 ? new RegExp(alternatives.join('|'), 'gi') : undefined,
  };
}

/** Per identifier: the query's terms among its terms. Shared by the documents of one query. */
export type TermCache = Map<string, readonly string[]>;

const isDigitCode = (c: number): boolean => c >= 48 && c <= 57;
const isIdentifierPart = (c: number): boolean =>
  isLowerCode(c) || isUpperCode(c) || isDigitCode(c) || c === 95 || c === 36;

/**
 * How often each query term occurs in `text`, as `splitWords(text)` would list it, by a native
 * pattern scan rather than a split of every identifier (`autofix context` reads thousands of
 * files per issue): the query's needles find the identifiers that can hold its terms, and only
 * those are split, each once per query.
 */
export function countTerms(
  text: string,
  query: TermQuery,
  cache: TermCache = new Map(),
): Map<string, number> {
  const counts = new Map<string, number>();
  const needles = query.needles;
  if (!needles) return counts;
  needles.lastIndex = 0;
  // `test` rather than `exec`: no match object per hit (hundreds of thousands per repository).
  // A needle is made of identifier characters, so the identifier around the hit is found from
  // the hit's end, both ways.
  while (needles.test(text)) {
    let end = needles.lastIndex;
    let start = end - 1;
    while (start > 0 && isIdentifierPart(text.charCodeAt(start - 1))) start--;
    // The identifier pattern cannot start with a digit: `2fa` holds the identifier `fa`.
    while (isDigitCode(text.charCodeAt(start))) start++;
    while (end < text.length && isIdentifierPart(text.charCodeAt(end))) end++;
    needles.lastIndex = end; // the next match is in a later identifier
    if (end - start < 2 || end - start > 60) continue;
    const word = text.slice(start, end);
    let kept = cache.get(word);
    if (kept === undefined) {
      kept = termsOf(word.includes('$') ? word.replace(/\$/g, '') : word).filter((t) =>
        query.keep.has(t),
      );
      cache.set(word, kept);
    }
    for (const t of kept) counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  return counts;
}

/** Per character code below 128: 2 may start an identifier (`[A-Za-z_$]`), 1 continue one (a digit). */
const IDENTIFIER_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z_$]/.test(ch)) IDENTIFIER_CLASS[c] = 2;
  else if (/[0-9]/.test(ch)) IDENTIFIER_CLASS[c] = 1;
}

/**
 * How many identifiers (`[A-Za-z_$][A-Za-z0-9_$]*`, as `splitWords` finds them) a text holds, from
 * its string or from its UTF-8 bytes (the same count: both identifier alphabets are ASCII, and
 * every other character, or byte of one, ends an identifier). One pass without a match per
 * identifier: a file of code holds thousands, and the reading threads count every file's.
 */
export function identifierCount(text: string | Uint8Array): number {
  // A string is counted from its bytes: one loop for both (the readers pass bytes).
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  let count = 0;
  let inside = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    const k = c < 128 ? IDENTIFIER_CLASS[c]! : 0;
    if (inside) inside = k !== 0;
    else if (k === 2) {
      count++;
      inside = true;
    }
  }
  return count;
}

/**
 * `countTerms`, and the text's length for BM25: how many identifiers it holds (`identifiers`, when
 * the reader counted them from the file's bytes).
 */
export function termCounts(
  text: string,
  query: TermQuery,
  cache: TermCache = new Map(),
  identifiers = identifierCount(text),
): TermCounts {
  return { counts: countTerms(text, query, cache), length: identifiers };
}
