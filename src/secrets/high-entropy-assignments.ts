/**
 * The one rule the maintained rule set (secretlint's recommended preset) lacks: a random-looking
 * value assigned to a name that says it is a credential (`API_KEY = "…"`, `"client_secret": …`,
 * `token: …`, `DB_PASSWORD=…`), the way gitleaks' `generic-api-key` works. A value counts when it
 * is long enough, mixes letters and digits, and its Shannon entropy per character is high;
 * placeholders (`xxx`, `<your-key>`, `${ENV}`, `changeme`), references (`process.env.X`) and
 * identifiers are not values.
 */

/** A name ending in one of these words (any case, `_`/`-`/`.` or camelCase before it). */
const NAME = String.raw`[A-Za-z0-9_.-]*?(?:key|token|secret|password|passwd|pwd|credentials?)`;
/** `name = value`, `name: value`, `name := value`, `name => value`, quotes around either. */
const ASSIGNMENT = new RegExp(
  String.raw`(?<![A-Za-z0-9_])["']?(${NAME})["']?\s*(?::=|=>|=|:)\s*(?:["'\x60]([^"'\x60\s]{16,256})["'\x60]|([A-Za-z0-9+/=_.~-]{16,256}))(?![A-Za-z0-9+/=_.~-])`,
  'gi',
);

const MIN_ENTROPY = 3.5;
const MIN_LENGTH = 16;

/** Words of placeholders, examples and references; a value holding one is not a credential. */
const NOT_A_VALUE =
  /x{3,}|\*{3,}|\.{3}|<[^>]*>|\$\{|\{\{|%\(|%s|\$[A-Z_]|process\.env|os\.environ|getenv|ENV\[|example|placeholder|changeme|change_me|your[_-]?|dummy|sample|redacted|secret_?key_?here|replace|insert|todo|fixme/i;

/** Shannon entropy of `text` in bits per character. */
export function shannonEntropy(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** A value that could be a generated credential rather than a word, path, or reference. */
export function looksRandom(value: string): boolean {
  if (value.length < MIN_LENGTH || NOT_A_VALUE.test(value)) return false;
  if (!/[0-9]/.test(value) || !/[A-Za-z]/.test(value)) return false;
  // Paths, URLs, dotted names and identifiers in snake or camel case are code, not keys.
  if (/[/\\]/.test(value) && !/^[A-Za-z0-9+/=]+$/.test(value)) return false;
  if (/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+$/.test(value)) return false;
  // CONSTANT_NAMES are references; counting runs (`123456`, `abcdef`) are made-up fixtures.
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value) || /123456|abcdef/i.test(value)) return false;
  if (/^[a-z]+(?:[_-][a-z0-9]+)+$/.test(value) || /^[a-z]+(?:[A-Z][a-z0-9]+)+$/.test(value))
    return false;
  return shannonEntropy(value) >= MIN_ENTROPY;
}

export interface AssignmentHit {
  /** Where the value stands in the text. */
  start: number;
  end: number;
  /** The name it is assigned to (safe to show; the value never is). */
  name: string;
}

export function highEntropyAssignments(text: string): AssignmentHit[] {
  const hits: AssignmentHit[] = [];
  for (const match of text.matchAll(ASSIGNMENT)) {
    const value = match[2] ?? match[3] ?? '';
    if (!looksRandom(value)) continue;
    const start = match.index + match[0].lastIndexOf(value);
    hits.push({ start, end: start + value.length, name: match[1]! });
  }
  return hits;
}
